/*===- table.h - The agent's threads and shadow stacks (pure part) ----------===*
 *
 * The table of traced threads and the pool their shadow stacks grow from
 * (tscc/agent.h describes both). Everything here works on the memory it
 * is given: no system call, no global, no lock, only atomics, and every
 * function may be interrupted by a signal handler of the same thread that
 * calls another. The agent uses it on its own configuration; unit tests
 * use it on memory of their own.
 *
 *===----------------------------------------------------------------------===*/
#ifndef TSCC_AGENT_TABLE_H
#define TSCC_AGENT_TABLE_H

#include "tscc/agent.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether process Pid uses this memory now: the agent's own process, or
 * one of the sharers while shared_mm is set. */
int tscc_agent_member(const struct tscc_agent_config *C, int32_t Pid);

/* The entry of the live thread with key Key: thread Tid when Tid is not 0,
 * else the one of a process that uses this memory. Null when there is
 * none. */
struct tscc_agent_thread *tscc_agent_find(struct tscc_agent_config *C,
                                          uint64_t Key, int32_t Tid);

/* Takes an entry for thread Tid of process Pid with key Key: an unused one,
 * or one of a thread that has ended, whose chunks go back to the pool.
 * Null when every place of the key's window holds a live thread. The
 * caller has looked for one first (tscc_agent_find). */
struct tscc_agent_thread *tscc_agent_take(struct tscc_agent_config *C,
                                          uint64_t Key, int32_t Tid,
                                          int32_t Pid);

/* Frees every entry of a thread that has ended, and its chunks. */
uint32_t tscc_agent_reclaim(struct tscc_agent_config *C);

/* The entry, of any live thread, whose innermost frame was hijacked at
 * Slot: for a return that does not find its frame where it should (the
 * thread changed its fs base since). Null when there is none. */
struct tscc_agent_thread *tscc_agent_find_slot(struct tscc_agent_config *C,
                                               uint64_t Slot);

/* The pool: a chunk (index + 1), or 0 when none is left. */
uint32_t tscc_agent_chunk_alloc(struct tscc_agent_config *C);
void tscc_agent_chunk_free(struct tscc_agent_config *C, uint32_t Chunk);
struct tscc_agent_chunk *tscc_agent_chunk_at(const struct tscc_agent_config *C,
                                             uint32_t Chunk);

/* Shadow stacks. Depth and the innermost frame, or null. */
uint32_t tscc_agent_depth(const struct tscc_agent_thread *T);
struct tscc_agent_shadow *tscc_agent_top(const struct tscc_agent_config *C,
                                         const struct tscc_agent_thread *T);
/* Pushes a frame; -1 when no chunk is left for it. */
int tscc_agent_push(struct tscc_agent_config *C, struct tscc_agent_thread *T,
                    uint64_t Slot, uint64_t Ret, uint64_t Site);
void tscc_agent_pop(struct tscc_agent_config *C, struct tscc_agent_thread *T);
/* The frame Above frames under the top (0: the top), or null. */
struct tscc_agent_shadow *tscc_agent_below(const struct tscc_agent_config *C,
                                           const struct tscc_agent_thread *T,
                                           uint32_t Above);
/* Takes out the frame Above frames under the top, the frames over it
 * moving down by one (a return that is not the innermost hijacked one:
 * another stack's, with coroutines). The caller keeps signals out. */
void tscc_agent_remove(struct tscc_agent_config *C, struct tscc_agent_thread *T,
                       uint32_t Above);
/* The real return addresses of the innermost frames, at most Max of them,
 * innermost last; their number. */
uint32_t tscc_agent_returns(const struct tscc_agent_config *C,
                            const struct tscc_agent_thread *T, uint64_t *Out,
                            uint32_t Max);
/* Gives every chunk of T back to the pool; its stack is then empty. Only
 * for an entry nobody else uses (being taken or reclaimed). */
void tscc_agent_release(struct tscc_agent_config *C,
                        struct tscc_agent_thread *T);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif
