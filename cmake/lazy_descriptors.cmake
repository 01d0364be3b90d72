# cmake -DIN=x.pb.cc -DOUT=x.lazy.pb.cc -P lazy_descriptors.cmake: OUT is IN without the static
# initialiser that registers the file's descriptors at program start (NetwarpProto.cmake says
# why). Protobuf 3.21 writes it as one line:
#   PROTOBUF_ATTRIBUTE_INIT_PRIORITY2 static ::_pbi::AddDescriptorsRunner dynamic_init_dummy_...;
file(READ ${IN} code)
string(REGEX REPLACE "\n[^\n]*static ::_pbi::AddDescriptorsRunner [^\n]*\n"
       "\n// (netwarp: registered on first use, see cmake/NetwarpProto.cmake)\n" lazy "${code}")
file(WRITE ${OUT}.tmp "${lazy}")
file(RENAME ${OUT}.tmp ${OUT})
