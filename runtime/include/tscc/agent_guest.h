/*===- tscc/agent_guest.h - Guest traps of the agent (qemu-user) ----------===*
 *
 * What tsrun and the agent share about the traps a qemu-user guest's agent
 * makes to tsrun through the stub, one thread at a time (Agent/guest.c,
 * Remote/RemoteGuestTraps.cpp). Apart from tscc/agent.h, which most of the
 * runtime includes, since only these files need it.
 *===----------------------------------------------------------------------===*/
#ifndef TSCC_AGENT_GUEST_H
#define TSCC_AGENT_GUEST_H

#include <stdint.h>

/* A hook kind (tscc_hook_kind): a probe whose clause tsrun runs (a stack
 * as a key, print() of an aggregation) at a site of a qemu-user guest. The
 * thread traps to tsrun, one thread at a time. Every hook of such a site
 * is one. */
#define TSCC_HOOK_HOST 64u /* far from the enum's next values */

/* The gate of guest traps, and the address right after their int3. */
#define TSCC_AGENT_SYM_GUEST_GATE "tscc_guest_gate"
#define TSCC_AGENT_SYM_GUEST_TRAP_END "tscc_guest_trap_end"

/* The gate, in the agent's data. */
struct tscc_guest_gate {
  uint32_t owner;      /* tid of the thread that traps, 0 when open */
  uint32_t attached;   /* 1 while tsrun serves traps (written by tsrun) */
  uint32_t taken_over; /* gates taken from a dead owner */
  uint32_t reentered;  /* hits dropped: their thread held the gate already */
};

#endif /* TSCC_AGENT_GUEST_H */
