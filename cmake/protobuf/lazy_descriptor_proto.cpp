// descriptor.proto registered with protobuf's generated pool on first use, not at program start.
//
// libprotobuf.a's descriptor.pb.cc registers descriptor.proto from a static initialiser: it
// indexes the whole serialized file, 0.46 M instructions at every netwarp start (bench/SCALE.md,
// "Fixed costs"), although a plain `netwarp run` never reads a descriptor. The link wraps that
// initialiser's call (-Wl,--wrap, set in the top CMakeLists.txt) and skips descriptor.proto
// only; protobuf registers it anyway before anything can look at the pool: every access goes
// through DescriptorPool::generated_pool(), which calls DescriptorProto::descriptor(), whose
// AssignDescriptors adds the file under protobuf's lock (3.21 and later). Every other file goes
// through unchanged.
#include <google/protobuf/generated_message_reflection.h>

#include <cstring>

using google::protobuf::internal::AddDescriptorsRunner;
using google::protobuf::internal::DescriptorTable;

extern "C" {
// The constructor AddDescriptorsRunner::AddDescriptorsRunner(const DescriptorTable*), as the
// linker names it; __real_ is the original, __wrap_ what descriptor.pb.o now calls.
void __real__ZN6google8protobuf8internal20AddDescriptorsRunnerC1EPKNS1_15DescriptorTableE(
    AddDescriptorsRunner* self, const DescriptorTable* table);

void __wrap__ZN6google8protobuf8internal20AddDescriptorsRunnerC1EPKNS1_15DescriptorTableE(
    AddDescriptorsRunner* self, const DescriptorTable* table) {
  if (std::strcmp(table->filename, "google/protobuf/descriptor.proto") == 0) return;
  __real__ZN6google8protobuf8internal20AddDescriptorsRunnerC1EPKNS1_15DescriptorTableE(self, table);
}
}
