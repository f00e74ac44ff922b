/*===- host.c - What the store and the agent need from the system -----------===*/
#include "agent.h"

#define CLOCK_MONOTONIC 1
#define FUTEX_WAIT 0
#define FUTEX_WAKE 1
#define ESRCH 3
#define SIGSTOP 19

uint64_t agent_now_ns(void) {
  struct {
    int64_t Sec, Nsec;
  } T = {0, 0};
  /* In a 32-bit process, the vDSO's clock_gettime64 (tsrun finds it). */
  int (*Vdso)(int, void *) =
      AGENT_PTR(int (*)(int, void *), tscc_agent_config.vdso_clock_gettime);
  if (LIKELY(Vdso != 0))
    Vdso(CLOCK_MONOTONIC, &T);
  else
    sys2(NR_clock_gettime, CLOCK_MONOTONIC, &T);
  return (uint64_t)T.Sec * 1000000000ull + (uint64_t)T.Nsec;
}

uint64_t tscc_host_now_ns(void) { return agent_now_ns(); }

void tscc_host_yield(void) { sys0(NR_sched_yield); }

int tscc_host_thread_alive(int32_t Tid) {
  /* kill() would take 0 and negative numbers for process groups. */
  return Tid > 0 && sys2(NR_kill, Tid, 0) != -ESRCH;
}

/* Reads /proc/<Tid>/<File> into Buf (at most Size - 1 bytes, then a 0):
 * the bytes read, or -1. */
static long read_proc_file(int32_t Tid, const char *File, char *Buf,
                           long Size) {
  char Path[48] = "/proc/";
  char Digits[12];
  int N = 0;
  for (uint32_t V = (uint32_t)Tid; V; V /= 10)
    Digits[N++] = (char)('0' + V % 10);
  int P = 6;
  while (N)
    Path[P++] = Digits[--N];
  Path[P++] = '/';
  for (int I = 0; File[I] && P < (int)sizeof(Path) - 1; ++I)
    Path[P++] = File[I];
  Path[P] = 0;
  long Fd = sys3(NR_open, Path, 0 /* O_RDONLY */, 0);
  if (Fd < 0)
    return -1;
  long Got = sys3(NR_read, Fd, Buf, Size - 1);
  sys1(NR_close, Fd);
  if (Got < 0)
    return -1;
  Buf[Got] = 0;
  return Got;
}

/* Whether Tid's tracer is the session's tsrun (TracerPid in its status):
 * then a tracing stop is tsrun at work on it (a fault of a clause passing
 * through, a breakpoint), which ends as soon as tsrun gets to it. */
static int traced_by_reader(int32_t Tid) {
  int32_t Reader = tscc_agent_config.reader_pid;
  char Buf[1024];
  long Got = read_proc_file(Tid, "status", Buf, sizeof(Buf));
  static const char Key[] = "TracerPid:";
  for (long I = 0; Reader > 0 && I + (long)sizeof(Key) < Got; ++I) {
    if (Buf[I] != 'T' || __builtin_memcmp(Buf + I, Key, sizeof(Key) - 1))
      continue;
    long J = I + (long)sizeof(Key) - 1;
    while (Buf[J] == ' ' || Buf[J] == '\t')
      ++J;
    int64_t Tracer = 0;
    for (; Buf[J] >= '0' && Buf[J] <= '9' && Tracer < (1 << 30); ++J)
      Tracer = Tracer * 10 + (Buf[J] - '0');
    /* TracerPid is the tracing thread's id: one of tsrun's threads if
     * tgkill(tsrun, it, 0) finds it there. */
    return Tracer > 0 &&
           (Tracer == Reader || sys3(NR_tgkill, Reader, Tracer, 0) == 0);
  }
  return 0;
}

/* Whether Owner will let go of the lock without anybody's help: it runs,
 * waits in the kernel, or is in a tracing stop of tsrun's (the state
 * letter of /proc/<Owner>/stat: the field after the command name, which
 * ends at the last ')'). Not a thread stopped by SIGSTOP, or by a
 * debugger: a stopped process must not slow every other target down. */
int tscc_host_owner_running(int32_t Owner) {
  if (Owner <= 0)
    return 0;
  char Buf[512];
  long Got = read_proc_file(Owner, "stat", Buf, sizeof(Buf));
  long Paren = -1;
  for (long I = 0; I < Got; ++I)
    if (Buf[I] == ')')
      Paren = I;
  if (Paren < 0 || Paren + 2 >= Got)
    return 0;
  char State = Buf[Paren + 2];
  if (State == 't')
    return traced_by_reader(Owner);
  return State == 'R' || State == 'S' || State == 'D';
}

/* tsrun found this thread stopped (SIGSTOP, SIGTSTP...) while it held the
 * lock, and let it run on to the end of its clause instead of leaving
 * every other thread waiting: now it stops, as it was asked to. */
void tscc_host_unlocked(int32_t Tid) {
  if (LIKELY(__atomic_load_n(&agent_proc.stop_after_unlock, __ATOMIC_ACQUIRE) !=
             (uint32_t)Tid))
    return;
  __atomic_store_n(&agent_proc.stop_after_unlock, 0, __ATOMIC_RELAXED);
  sys3(NR_tgkill, sys0(NR_getpid), Tid, SIGSTOP);
}

void tscc_host_wake(uint32_t *Futex) {
  sys3(NR_futex, Futex, FUTEX_WAKE, 0x7fffffff);
}

/*--- Rings, mapped as threads first write them ------------------------------*/

#define PROT_RW 3     /* PROT_READ | PROT_WRITE */
#define MAP_SHARED_ 1 /* MAP_SHARED */
#define MAP_NORESERVE_ 0x4000
#define MADV_DONTFORK_ 10
#define STATX_INO_ 0x100u
#define AT_EMPTY_PATH_ 0x1000

/* Whether descriptor Fd is still the shard's memfd: a program may have
 * closed it and opened something else under the same number. */
static int shard_fd_is_ours(long Fd) {
  uint64_t Buf[32]; /* struct statx: 256 bytes */
  __builtin_memset(Buf, 0, sizeof(Buf));
  if (sys6(NR_statx, Fd, (long)"", AT_EMPTY_PATH_, STATX_INO_, (long)Buf, 0))
    return 0;
  const uint32_t *Words = (const uint32_t *)Buf;
  return Buf[4] == tscc_agent_config.shard_ino &&          /* stx_ino at 32 */
         Words[34] == tscc_agent_config.shard_dev_major && /* at 136 */
         Words[35] == tscc_agent_config.shard_dev_minor;   /* at 140 */
}

/* A ring's table entry: the address of its mapping, page-aligned, and in
 * the low bits K, for a mapping of 4096 << K bytes (or the ring's whole
 * stride, if that is less). A ring is mapped 16 KiB at first, and grows
 * (mremap, which may move it) by doubling as its thread writes further
 * into it: a thread that writes a few records costs 16 KiB, one that
 * went round its ring the whole ring. */
#define RING_FIRST_SHIFT 2 /* 16 KiB */
#define RING_SHIFT_MASK 31u

static uint64_t ring_mapped_len(uint64_t Entry, uint64_t Stride) {
  uint64_t Len = 4096ull << (Entry & RING_SHIFT_MASK);
  return Len < Stride ? Len : Stride;
}

static uint32_t ring_shift_for(uint64_t Need, uint32_t Shift) {
  while ((4096ull << Shift) < Need && Shift < RING_SHIFT_MASK)
    ++Shift;
  return Shift;
}

static int sys_failed(long R) {
  return (unsigned long)R > (unsigned long)-4096L;
}

/* Without the descriptor (a daemon that closed every descriptor it did not
 * open itself): mremap() with an old size of 0 makes a new mapping of the
 * pages of a shared one, here the shard's head at offset 0, as far as the
 * end of the ring; the part before the ring is then given back. The
 * address space it takes for a moment (the head and the rings before this
 * one) is what the whole shard used to cost for good. */
static long map_ring_from_head(struct tscc_store *S, uint64_t Off,
                               uint64_t Len) {
  long At = sys6(NR_mremap, (long)(unsigned long)S->shard, 0, (long)(Off + Len),
                 1 /* MREMAP_MAYMOVE */, 0, 0);
  if (!sys_failed(At) && Off)
    sys2(NR_munmap, At, (long)Off);
  return sys_failed(At) ? At : At + (long)Off;
}

/* Maps (or grows the mapping of) ring Ring to at least Need bytes; 0 when
 * it cannot. Only the ring's thread writes its ring, under the store lock,
 * so nobody else holds its address while it moves. */
static uint8_t *map_ring(struct tscc_store *S, uint32_t Ring, uint64_t *Table,
                         uint64_t Entry, uint64_t Need) {
  uint64_t Stride = tscc_ring_stride(&S->layout, Ring);
  uint32_t Shift = ring_shift_for(Need, Entry ? (Entry & RING_SHIFT_MASK) + 1
                                              : RING_FIRST_SHIFT);
  uint64_t Len = ring_mapped_len(Shift, Stride);
  long At;
  if (Entry) {
    At = sys6(NR_mremap, (long)(Entry & ~4095ull),
              (long)ring_mapped_len(Entry, Stride), (long)Len,
              1 /* MREMAP_MAYMOVE */, 0, 0);
  } else {
    long Fd = tscc_agent_config.shard_fd;
    uint64_t Off = tscc_ring_offset(&S->layout, Ring);
#if UINTPTR_MAX == 0xffffffffu
    long ArgOff = (long)(Off >> 12); /* mmap2 */
#else
    long ArgOff = (long)Off;
#endif
    At = Fd >= 0 && shard_fd_is_ours(Fd)
             ? sys6(NR_mmap, 0, (long)Len, PROT_RW,
                    MAP_SHARED_ | MAP_NORESERVE_, Fd, ArgOff)
             : map_ring_from_head(S, Off, Len);
    /* A child made by fork() gets a shard of its own, and its own rings. */
    if (!sys_failed(At))
      sys3(NR_madvise, At, (long)Len, MADV_DONTFORK_);
  }
  if (sys_failed(At)) {
    agent_notice(TSCC_NOTICE_RING_MAP);
    return 0;
  }
  __atomic_store_n(&Table[Ring], (uint64_t)(unsigned long)At | Shift,
                   __ATOMIC_RELEASE);
  return AGENT_PTR(uint8_t *, (uint64_t)(unsigned long)At);
}

/* --on-full=block: how long a full ring's writer sleeps at a time before
 * it looks whether tsrun still lives and the session goes on (the reader
 * wakes it as soon as it makes room), and how often it looks for room
 * first without a system call. */
#define RING_WAIT_NS 10000000L
#define RING_WAIT_SPINS 256

/* Whether a writer must stop waiting: tsrun is gone (however it died, its
 * robust futex says so), or the session ends. Its record is dropped then,
 * and counted. */
static int ring_wait_over(struct tscc_store *S) {
  return (__atomic_load_n(&S->control->reader_alive, __ATOMIC_ACQUIRE) &
          TSCC_READER_GONE) ||
         agent_stopping(S);
}

int tscc_host_ring_wait(struct tscc_store *S, uint32_t Ring, uint64_t Tail) {
  if (!__atomic_load_n(&S->control->block_when_full, __ATOMIC_RELAXED))
    return 0;
  struct tscc_ring *R = tscc_ring_at(S, Ring);
  for (int I = 0; I < RING_WAIT_SPINS; ++I) {
    if (__atomic_load_n(&R->tail, __ATOMIC_ACQUIRE) != Tail)
      return 1;
    __builtin_ia32_pause();
  }
  if (ring_wait_over(S))
    return 0;
  /* Said before the tail is looked at again, and the reader looks at it
   * after it moved the tail: one of the two sees the other. */
  __atomic_store_n(&R->waiting, 1, __ATOMIC_SEQ_CST);
  struct tscc_store_header *H = tscc_store_hdr(S);
  __atomic_add_fetch(&H->wake, 1, __ATOMIC_RELEASE);
  tscc_host_wake(&H->wake);
  if (__atomic_load_n(&R->tail, __ATOMIC_SEQ_CST) == Tail) {
    struct {
      long Sec, Nsec;
    } Timeout = {0, RING_WAIT_NS};
    /* The tail's low word (little-endian): it changes whenever the tail
     * does, by less than 4 GiB. */
    sys4(NR_futex, (long)(unsigned long)&R->tail, FUTEX_WAIT,
         (long)(uint32_t)Tail, (long)(unsigned long)&Timeout);
  }
  return !ring_wait_over(S);
}

uint8_t *tscc_host_ring(struct tscc_store *S, uint32_t Ring, uint64_t Need) {
  uint64_t *Table = AGENT_PTR(uint64_t *, tscc_agent_config.rings);
  if (!Table) /* the whole shard is mapped */
    return S->shard + tscc_ring_offset(&S->layout, Ring);
  uint64_t Entry = __atomic_load_n(&Table[Ring], __ATOMIC_ACQUIRE);
  if (LIKELY(Entry != 0 &&
             ring_mapped_len(Entry, tscc_ring_stride(&S->layout, Ring)) >=
                 Need))
    return AGENT_PTR(uint8_t *, Entry & ~4095ull);
  return map_ring(S, Ring, Table, Entry, Need);
}
