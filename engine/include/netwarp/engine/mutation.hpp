// Mutation: the permission to change a reversible field, carrying the undo log. Only the event
// context makes one, so state changes go through it and are logged (or not, sequentially).
#pragma once

#include "netwarp/engine/undo_log.hpp"

namespace netwarp::engine {

// Permission to mutate, carrying the undo log (null: nothing to log). Only contexts make one.
class Mutation {
 public:
  UndoLog* log() const { return log_; }

 private:
  friend class EventCtx;
  explicit Mutation(UndoLog* log) : log_(log) {}
  UndoLog* log_;
};

}  // namespace netwarp::engine
