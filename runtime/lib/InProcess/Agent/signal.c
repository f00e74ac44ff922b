/*===- signal.c - Faults in clause code, and everybody else's ----------------===*
 *
 * The agent's handler for SIGSEGV, SIGBUS and SIGFPE, installed in front of
 * whatever the program had:
 *   - a fault inside tscc_safe_copy/strcpy is a bad pointer in a script:
 *     the copy returns -1 and the clause counts a fault;
 *   - a fault in clause or agent code while a clause runs abandons that
 *     firing (counted as a fault), the way tsrun abandons a crashed clause;
 *   - anything else is the program's: it goes to the program's handler, or
 *     gets the default action exactly as if the agent were not there.
 *===----------------------------------------------------------------------===*/
#include "agent.h"

#define SA_SIGINFO 4ull
#define SA_NODEFER 0x40000000ull
#define SA_RESETHAND 0x80000000ull
#define SIG_BLOCK 0
#define SIG_SETMASK 2

void tscc_agent_signal(int Sig, void *Info, void *Uc) HIDDEN;
void agent_chain_signal(int Sig, void *Info, void *Uc,
                        struct tscc_kernel_sigaction *Slot);

static int signal_index(int Sig) {
  switch (Sig) {
  case 11:
    return TSCC_AGENT_SIGSEGV;
  case 7:
    return TSCC_AGENT_SIGBUS;
  case 8:
    return TSCC_AGENT_SIGFPE;
  default:
    return -1;
  }
}

static int in_our_code(uint64_t Pc) {
  const struct tscc_agent_config *C = &tscc_agent_config;
  return (Pc >= C->code_lo && Pc < C->code_hi) ||
         (Pc >= C->agent_lo && Pc < C->agent_hi);
}

/* As the kernel would have delivered it to the program, whose disposition
 * for Sig the agent keeps at *Slot. */
void agent_chain_signal(int Sig, void *Info, void *Uc,
                        struct tscc_kernel_sigaction *Slot) {
  struct tscc_kernel_sigaction Old = *Slot;
  int SiCode = ((int *)Info)[2];
  uint64_t Handler = AGENT_KSA_HANDLER(&Old);
  if (Handler <= 1) {
    /* SIG_DFL, or SIG_IGN. A fault cannot be ignored (the kernel forces
     * the default): put the default back and let it happen again. A
     * signal somebody sent is resent, unless it was ignored; so is the
     * program's own int3, a trap that does not happen again. */
    if (Handler == 1 && SiCode <= 0)
      return;
    struct tscc_kernel_sigaction Dfl;
    __builtin_memset(&Dfl, 0, sizeof(Dfl));
    sys4(NR_rt_sigaction, Sig, &Dfl, 0, 8);
    if (SiCode <= 0 || Sig == 5 /* SIGTRAP */)
      sys3(NR_tgkill, sys0(NR_getpid), sys0(NR_gettid), Sig);
    return;
  }
  uint64_t Mask = AGENT_KSA_MASK(&Old);
  uint64_t Flags = AGENT_KSA_FLAGS(&Old);
  if (!(Flags & SA_NODEFER))
    Mask |= 1ull << (Sig - 1);
  uint64_t Saved = 0;
  sys4(NR_rt_sigprocmask, SIG_BLOCK, &Mask, &Saved, 8);
  if (Flags & SA_RESETHAND)
    Slot->handler = 0;
  if (Flags & SA_SIGINFO)
    AGENT_PTR(void (*)(int, void *, void *), Handler)(Sig, Info, Uc);
  else
    AGENT_PTR(void (*)(int), Handler)(Sig);
  sys4(NR_rt_sigprocmask, SIG_SETMASK, &Saved, 0, 8);
}

void tscc_agent_signal(int Sig, void *Info, void *Uc) {
  agent_greg_t *PcSlot = AGENT_UC_PC(Uc);
  uint64_t Pc = *PcSlot;
  int SiCode = ((int *)Info)[2];
  if (SiCode > 0 && Pc >= AGENT_ADDR(tscc_safe_begin) &&
      Pc < AGENT_ADDR(tscc_safe_end)) {
    *PcSlot = (agent_greg_t)AGENT_ADDR(tscc_safe_fault);
    __atomic_add_fetch(&tscc_agent_config.recovered_faults, 1,
                       __ATOMIC_RELAXED);
    return;
  }
  if (SiCode > 0 && in_our_code(Pc)) {
    struct tscc_agent_thread *T = agent_thread(0);
    if (T && T->in_clause) {
      T->in_clause = 0;
      *AGENT_UC_SP(Uc) = (agent_greg_t)T->recover.rsp;
      *PcSlot = (agent_greg_t)T->recover.rip;
      __atomic_add_fetch(&tscc_agent_config.recovered_faults, 1,
                         __ATOMIC_RELAXED);
      return;
    }
  }
  int I = signal_index(Sig);
  if (I >= 0)
    agent_chain_signal(Sig, Info, Uc, &tscc_agent_config.chained[I]);
}

void tscc_agent_trap(int Sig, void *Info, void *Uc) HIDDEN;
int agent_trap_redirect(uint64_t *Rip);

/* SIGTRAP: installed by tsrun for trap sites, or by the agent while it
 * puts sites back after tsrun died. An int3 of ours (si_code SI_KERNEL,
 * the pc just past a site) goes on in the site's trampoline; anything else
 * is the program's, sent on as the kernel would have. */
void tscc_agent_trap(int Sig, void *Info, void *Uc) {
  agent_greg_t *PcSlot = AGENT_UC_PC(Uc);
  uint64_t Pc = *PcSlot;
  if (((int *)Info)[2] > 0 && agent_trap_redirect(&Pc)) {
    *PcSlot = (agent_greg_t)Pc;
    return;
  }
  agent_chain_signal(Sig, Info, Uc, &tscc_agent_config.chained_trap);
}
