// Reversible state primitives. All mutable LP state is made of these; every write goes through
// the event context (ctx.set, ctx.add, ctx.push_back ...) and leaves an undo record, so models
// never write reverse handlers. Reads are plain. The sequential kernel logs nothing.
//
// An undo record holds the address of the field it restores, so a field must not move once the
// LP is built: keep primitives as direct members (or in containers sized at construction and
// never resized), never in a std::vector that grows during the run.
#pragma once

#include "netwarp/engine/rev_fifo.hpp"
#include "netwarp/engine/rev_hash_map.hpp"
#include "netwarp/engine/rev_map.hpp"
#include "netwarp/engine/rev_value.hpp"
#include "netwarp/engine/rev_vector.hpp"
