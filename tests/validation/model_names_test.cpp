#include <gtest/gtest.h>

#include "netwarp/validation/model_names.hpp"

namespace netwarp::validation {
namespace {

TEST(ModelNames, ParsesListsInOrder) {
  const auto models = parse_model_list("loggps,plogp-br,flow");
  ASSERT_EQ(models.size(), 3u);
  EXPECT_EQ(models[0], ModelKind::loggps);
  EXPECT_EQ(models[1], ModelKind::plogp_br);
  EXPECT_EQ(models[2], ModelKind::flow);
  EXPECT_EQ(model_name(ModelKind::plogp_br), "plogp-br");
}

TEST(ModelNames, RejectsUnknownEmptyAndRepeated) {
  EXPECT_THROW(parse_model_name("logpgs"), std::invalid_argument);
  EXPECT_THROW(parse_model_list("loggps,,flow"), std::invalid_argument);
  EXPECT_THROW(parse_model_list(""), std::invalid_argument);
  EXPECT_THROW(parse_model_list("flow,flow"), std::invalid_argument);
}

}  // namespace
}  // namespace netwarp::validation
