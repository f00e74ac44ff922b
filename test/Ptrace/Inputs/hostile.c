/* hostile MODE N [ARG]: a traced program that attacks tsrun through the
 * memory tsrun shares with it (test/Ptrace/hostile-*.t), or, as MODE
 * steady, the well-behaved program traced beside it.
 *
 * It calls poke(MAGIC, i) until it finds what the agent put into its
 * memory: the mappings named memfd:tscc-*, its own thread's entry and ring
 * in them, the aggregation entry keyed MAGIC. Then it corrupts what MODE
 * says, calls poke() N more times, and prints what it did. It finds
 * everything by scanning (only the resident pages, with mincore()), as an
 * attacker who knows tscc/store.h but not the layout tsrun chose would.
 *
 *   steady N        call work() N times, print "steady calls N"
 *   ring-size N SZ  a thread keeps flipping the size of the record the
 *                   reader reads next (ring data size SZ) to a huge one
 *   agg-avg N       after the calls, the avg() entry: count -1, sum
 *                   INT64_MIN
 *   thread-index N  a thread keeps writing 1 over its thread entry and the
 *                   64 KiB after it (the rest of the thread table, the
 *                   thread index)
 *   lock-die N FIFO a thread takes the store's lock and holds it while the
 *                   main thread's calls time out on it, then dies with it;
 *                   then "holder died" goes to FIFO
 *   lock-hold N     a thread takes the store's lock and holds it while the
 *                   main thread calls work() N times, then lets go; prints
 *                   "lock-hold calls N"
 *
 *   burst-words N SZ  with its own ring of SZ data bytes (so that its
 *                   records go on in burst buffers), a thread keeps
 *                   writing the words that steer them: its ring's word
 *                   naming its burst buffer (none, each, past the last,
 *                   ~0), and in each burst buffer of the default size
 *                   (found from the end of the shard, mapped whole) the
 *                   owner word, the head and the tail
 *   ring-header N   a thread keeps writing its ring's header: the head far
 *                   ahead, behind the tail, at 0, misaligned; the tail;
 *                   the dropped count
 *   map N SLOTS     writes over its entry of the map keyed MAGIC (a chain
 *                   to itself, a wrong hash), the map's index before it
 *                   (SLOTS slots: every one names that entry) and the
 *                   table's state before that
 *   header N        a thread keeps setting the store's old sequence word
 *                   (unused since records are numbered per thread) back
 *                   to 0, asking tsrun to end the session (its
 *                   shard's exit request), stopping its own clauses, and
 *                   waking tsrun
 *   control N       tries to make the control page writable (mprotect,
 *                   /proc/self/mem) and says whether it could
 *   forge SZ FILE FIFO  waits for "PID ADDRESS" in FILE (written by
 *                   `secret`), then appends records to its own ring (data
 *                   size SZ) that claim to come from other processes (target
 *                   ids 0 to 4): printf records, and stack snapshots whose
 *                   frame pointer points at ADDRESS in that other process.
 *                   Once tsrun has read them it writes a byte to FIFO.
 *   secret FILE FIFO KEY  keeps a secret (derived from its pid) at an
 *                   address it writes to FILE with its pid, the secret
 *                   itself to KEY (for the test only), and waits for a byte
 *                   on FIFO.
 *
 *   scribble N FILE  (run as another user than the steady one) waits for
 *                   FILE, then says whether MARK is anywhere in the tscc
 *                   memory it has; then a thread keeps writing 0xa5 over
 *                   all of it (store and shard: header, lock, sequence,
 *                   maps, aggregations, thread table, rings) while it
 *                   calls poke() N times
 *
 * And three that are not hostile, for the tests of stopped and killed
 * processes:
 *   hot N FIFO      two threads call poke() without end; after N calls
 *                   the pid goes to FIFO
 *   steady-marked N FILE  calls work() once (whose clause puts MARK into a
 *                   global variable), creates FILE, then calls it N-1 more
 *                   times and prints "steady pid P calls N"
 *   steady-until FIFO   calls work() from when a byte can be read from FIFO
 *                   until the next one, then prints "steady calls N"
 */
#define _GNU_SOURCE
/* 32-bit builds: /proc/self/mem offsets are addresses above 2 GiB. */
#define _FILE_OFFSET_BITS 64
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tscc/store.h"

/* poke()'s key: a long, so 32 bits in a -m32 build; the store keeps a
 * long key as 8 bytes, sign-extended (the comparisons below promote it the
 * same way). */
#define MAGIC ((long)0x5ca1ab1e0ddba11ll)
#define MARK 0x5345435245543031ll

__attribute__((noipa)) long poke(long Key, long V) { return Key ^ V; }
__attribute__((noipa)) long work(long I) { return I * 3; }

struct region {
  uint8_t *Lo, *Hi;
  int Writable;
  int Ring; /* a ring mapped by itself (no store or shard magic first) */
};
static struct region Regions[64];
static int RegionCount;
static volatile int Stop;

static int gettid_(void) { return (int)syscall(SYS_gettid); }

/* The agent maps its shard's rings one by one, as its threads write into
 * them, from a descriptor of the shard it keeps: a program can map all of
 * it from there itself, as this one does, once. */
static uint8_t *WholeShard;
static uint64_t WholeShardSize;
static void map_whole_shard(void) {
  static int Done;
  for (int Fd = 3; Fd < 4096 && !Done; ++Fd) {
    char Path[64], Link[128];
    snprintf(Path, sizeof(Path), "/proc/self/fd/%d", Fd);
    ssize_t N = readlink(Path, Link, sizeof(Link) - 1);
    struct stat St;
    if (N <= 0 || (Link[N] = 0, !strstr(Link, "memfd:tscc-shard")) ||
        fstat(Fd, &St) != 0)
      continue;
    void *At = mmap(0, (size_t)St.st_size, PROT_READ | PROT_WRITE,
                    MAP_SHARED, Fd, 0);
    Done = At != MAP_FAILED;
    if (Done) {
      WholeShard = At;
      WholeShardSize = (uint64_t)St.st_size;
    }
  }
}

static void find_regions(void) {
  map_whole_shard();
  FILE *F = fopen("/proc/self/maps", "r");
  char Line[512];
  RegionCount = 0;
  while (F && fgets(Line, sizeof(Line), F) && RegionCount < 64) {
    unsigned long Lo, Hi;
    char Perm[8];
    if (!strstr(Line, "memfd:tscc") ||
        sscanf(Line, "%lx-%lx %7s", &Lo, &Hi, Perm) != 3)
      continue;
    uint64_t Magic = 0;
    if (Perm[0] == 'r')
      memcpy(&Magic, (void *)Lo, 8);
    Regions[RegionCount++] = (struct region){
        (uint8_t *)Lo, (uint8_t *)Hi, Perm[1] == 'w',
        Magic != TSCC_STORE_MAGIC && Magic != TSCC_SHARD_MAGIC};
  }
  if (F)
    fclose(F);
}

/* Calls Fn on every resident page of the writable tscc mappings until it
 * returns something. */
/* Rings mapped by themselves are left alone (they may be mapped in part,
 * and move as they grow): records are looked for in the whole shard. */
static void *scan(void *(*Fn)(uint8_t *Page, void *Arg), void *Arg) {
  for (int R = 0; R < RegionCount; ++R) {
    if (!Regions[R].Writable || Regions[R].Ring)
      continue;
    size_t Pages = (size_t)(Regions[R].Hi - Regions[R].Lo) / 4096;
    unsigned char *In = calloc(Pages, 1);
    void *Found = 0;
    if (In && mincore(Regions[R].Lo, Pages * 4096, In) == 0)
      for (size_t I = 0; I < Pages && !Found; ++I)
        if (In[I] & 1)
          Found = Fn(Regions[R].Lo + I * 4096, Arg);
    free(In);
    if (Found)
      return Found;
  }
  return 0;
}

/* struct tscc_thread {state, target, tid, gen}: this thread, live. */
static void *thread_entry_in(uint8_t *Page, void *Arg) {
  int Tid = *(int *)Arg;
  for (uint32_t *W = (uint32_t *)Page; W < (uint32_t *)(Page + 4096); W += 4)
    if (W[0] == 1 && (int)W[2] == Tid && W[3] != 0)
      return W;
  return 0;
}

/* The first record of this thread's ring: a tscc_ring_record of type 1
 * (this build's data model: LP64 1, ILP32 0) naming this thread, at the start of a ring's data
 * area (192 bytes of ring header before it, on a 64-byte boundary). */
static void *first_record_in(uint8_t *Page, void *Arg) {
  int Tid = *(int *)Arg;
  /* Rings start on 64-byte boundaries, and so do their data areas. */
  for (uint8_t *Rec = Page; Rec + 40 <= Page + 4096; Rec += 64) {
    uint32_t Size;
    uint16_t Type, Model;
    int32_t T;
    memcpy(&Size, Rec, 4);
    memcpy(&Type, Rec + 4, 2);
    memcpy(&Model, Rec + 6, 2);
    memcpy(&T, Rec + 12, 4);
    if (Type == 1 && Model == (sizeof(long) == 8) && T == Tid && Size >= 40 && Size % 8 == 0)
      return Rec;
  }
  return 0;
}

/* struct tscc_entry {hash, thread, next, prev, live, reserved}, then the
 * key. */
static void *agg_entry_in(uint8_t *Page, void *Arg) {
  (void)Arg;
  for (uint8_t *P = Page; P + 32 <= Page + 4096; P += 16) {
    uint32_t H[6];
    int64_t Key;
    memcpy(H, P, sizeof(H));
    memcpy(&Key, P + 24, 8);
    if (Key == MAGIC && H[1] == 0 && H[4] == 1 && H[5] == 0)
      return P;
  }
  return 0;
}

static void *find(void *(*Fn)(uint8_t *, void *), void *Arg) {
  for (int Try = 0; Try < 20000; ++Try) {
    poke(MAGIC, Try);
    find_regions();
    void *Found = scan(Fn, Arg);
    if (Found)
      return Found;
    usleep(1000);
  }
  fprintf(stderr, "hostile: not found\n");
  exit(2);
}

static uint8_t *RingData;
static uint64_t RingSize;

static void *flip_sizes(void *A) {
  (void)A;
  volatile uint64_t *Tail = (volatile uint64_t *)(RingData - 192 + 64);
  while (!Stop) {
    volatile uint32_t *Size =
        (volatile uint32_t *)(RingData + (*Tail & (RingSize - 1)));
    uint32_t Was = *Size;
    for (int I = 0; I < 64; ++I) {
      *Size = 0x7ffffff8;
      *Size = Was;
    }
  }
  return 0;
}

/* struct tscc_ring: head at 0, tail at 64, the burst-buffer word at 160,
 * the owner word at 164; burst buffers of 64M (and a page of header) are
 * the last four of the shard. */
static void *forge_burst_words(void *A) {
  (void)A;
  static const uint32_t Names[] = {0, 1, 2, 3, 4, 5, 65, 0xffffffffu};
  const uint64_t Stride = (64ull << 20) + 4096;
  for (uint64_t Round = 0; !Stop; ++Round) {
    *(volatile uint32_t *)(RingData - 192 + 160) = Names[Round % 8];
    for (uint64_t K = 1; K <= 4 && WholeShard && WholeShardSize > 4 * Stride;
         ++K) {
      volatile uint8_t *E = WholeShard + WholeShardSize - K * Stride;
      *(volatile uint32_t *)(E + 164) = (uint32_t)(Round * K) % 3 == 0
                                            ? 0xffffffffu
                                            : (uint32_t)(Round % 5);
      if (Round % 16 == K) {
        *(volatile uint64_t *)E += Round % 2 ? 1ull << 40 : 12;
        *(volatile uint64_t *)(E + 64) = ~0ull >> (Round % 64);
      }
    }
    if (Round % 64 == 0)
      usleep(50);
  }
  return 0;
}

static void forge_ring_header_once(uint64_t Round) {
  volatile uint64_t *Ring = (volatile uint64_t *)(RingData - 192);
  uint64_t Head = Ring[0];
  static const uint64_t Skew[] = {1ull << 40, (uint64_t)-4096, 7, 0};
  Ring[0] = Round % 4 == 3 ? 0 : Head + Skew[Round % 4];
  Ring[8] = ~0ull >> (Round % 64); /* tail */
  Ring[16] = ~0ull;                /* dropped */
}

static void *forge_ring_header(void *A) {
  (void)A;
  for (uint64_t Round = 0; !Stop; ++Round) {
    forge_ring_header_once(Round);
    usleep(100);
  }
  return 0;
}

/* The map's entry keyed MAGIC, the first (tscc_entry, key, then an 8-byte
 * value): its chain points at itself, its hash is wrong, and every slot of
 * the index before it names it; the table's state (a cache line before
 * the index) says it is empty and its free list starts anywhere. */
static void corrupt_map(uint32_t *Entry, size_t Slots) {
  uint32_t *Index = Entry - Slots;
  for (uint32_t *W = Index; W < Entry; ++W)
    *W = 1;
  uint32_t *State = Index - 64 / 4;
  State[0] = 0;          /* live */
  State[1] = 0xffffffff; /* used */
  State[2] = 0x7fffffff; /* free_head */
  State[3] = 0xffffffff; /* tombstones */
  Entry[0] ^= 0x5a5a5a5a; /* hash */
  Entry[2] = 1;           /* next */
  Entry[3] = 1;           /* prev */
}

static uint32_t *Scribble;
static size_t ScribbleBytes = 65536;

static void *scribble(void *A) {
  (void)A;
  while (!Stop)
    for (size_t I = 0; I < ScribbleBytes / 4; ++I)
      Scribble[I] = 1;
  return 0;
}

/* As much of 64 KiB from P as its mapping holds (the shard's head may end
 * before: the rings are mapped apart). */
static size_t bytes_to_region_end(void *P, size_t Max) {
  for (int R = 0; R < RegionCount; ++R)
    if ((uint8_t *)P >= Regions[R].Lo && (uint8_t *)P < Regions[R].Hi) {
      size_t Left = (size_t)(Regions[R].Hi - (uint8_t *)P);
      return Left < Max ? Left : Max;
    }
  return 0;
}

#define STORE_MAGIC 0x3152545343435354ull /* TSCC_STORE_MAGIC */

/* struct tscc_store_header: the lock word is the first of its second
 * cache line. */
static void *store_header_in(uint8_t *Page, void *Arg) {
  (void)Arg;
  uint64_t Magic;
  memcpy(&Magic, Page, 8);
  for (int R = 0; R < RegionCount; ++R)
    if (Page == Regions[R].Lo && Magic == STORE_MAGIC)
      return Page;
  return 0;
}

static volatile uint32_t *LockWord;
static struct tscc_store_header *StoreHeader;
static struct tscc_shard_header *ShardHeader;

static void *shard_header_in(uint8_t *Page, void *Arg) {
  (void)Arg;
  uint64_t Magic;
  memcpy(&Magic, Page, 8);
  for (int R = 0; R < RegionCount; ++R)
    if (Page == Regions[R].Lo && Magic == TSCC_SHARD_MAGIC)
      return Page;
  return 0;
}

static void forge_header_once(void) {
  __atomic_store_n(&StoreHeader->seq, 0, __ATOMIC_RELAXED);
  ShardHeader->exit_requested = 1;
  ShardHeader->stopping = 1;
  __atomic_add_fetch(&StoreHeader->wake, 1, __ATOMIC_RELAXED);
  syscall(SYS_futex, &StoreHeader->wake, 1 /* FUTEX_WAKE */, 1, 0, 0, 0);
}

static void *forge_header(void *A) {
  (void)A;
  while (!Stop) {
    forge_header_once();
    usleep(100);
  }
  return 0;
}

/* Every way a process has to write a read-only shared mapping of its
 * own; 1 if one of them worked. */
static int write_control(void) {
  FILE *F = fopen("/proc/self/maps", "r");
  char Line[512];
  unsigned long Lo = 0, Hi = 0;
  char Perm[8] = "";
  while (F && fgets(Line, sizeof(Line), F))
    if (strstr(Line, "memfd:tscc-control") &&
        sscanf(Line, "%lx-%lx %7s", &Lo, &Hi, Perm) == 3)
      break;
  if (F)
    fclose(F);
  if (!Lo) {
    printf("hostile: no control page\n");
    return 1;
  }
  int Wrote = Perm[1] == 'w';
  if (mprotect((void *)Lo, Hi - Lo, PROT_READ | PROT_WRITE) == 0)
    Wrote = 1;
  int Mem = open("/proc/self/mem", O_RDWR);
  uint32_t Off = 1;
  /* collect_off, at offset 16 */
  if (Mem >= 0 && pwrite(Mem, &Off, 4, (off_t)(Lo + 16)) == 4)
    Wrote = 1;
  if (Mem >= 0)
    close(Mem);
  return Wrote;
}

static void *hold_lock_then_die(void *A) {
  (void)A;
  uint32_t Free = 0;
  while (!__atomic_compare_exchange_n(LockWord, &Free, (uint32_t)gettid_(), 0,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
    Free = 0;
  /* Held: the main thread's calls wait for it, time out, and mark it as
   * stuck; then this thread ends without letting go. */
  for (int I = 0; I < 40; ++I) {
    poke(MAGIC, I);
    usleep(25000);
  }
  return 0;
}

static volatile int Held, LetGo;

/* Takes the lock as a live thread of the session would, and keeps it
 * until told. */
static void *hold_lock(void *A) {
  (void)A;
  uint32_t Free = 0;
  while (!__atomic_compare_exchange_n(LockWord, &Free, (uint32_t)gettid_(), 0,
                                      __ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
    Free = 0;
    usleep(100);
  }
  Held = 1;
  while (!LetGo)
    usleep(1000);
  __atomic_store_n(LockWord, 0, __ATOMIC_RELEASE);
  return 0;
}

static void *hot(void *A) {
  long Sum = 0;
  for (long I = 0;; ++I)
    Sum += poke(MAGIC, I);
  return (void *)Sum;
}

/* Whether MARK, as a long of this build (what a clause of its data model
 * stores), is in any tscc mapping of this process. */
static int marker_seen(void) {
  find_regions();
  for (int R = 0; R < RegionCount; ++R)
    for (long *W = (long *)Regions[R].Lo; W < (long *)Regions[R].Hi; ++W)
      if (*W == (long)MARK)
        return 1;
  return 0;
}

static void *scribble_all(void *A) {
  (void)A;
  while (!Stop)
    for (int R = 0; R < RegionCount; ++R)
      if (Regions[R].Writable)
        memset(Regions[R].Lo, 0xa5, (size_t)(Regions[R].Hi - Regions[R].Lo));
  return 0;
}

static void wait_for_file(const char *Path) {
  while (access(Path, F_OK) != 0) {
    if (errno != ENOENT) {
      fprintf(stderr, "hostile: cannot look for %s: %s\n", Path,
              strerror(errno));
      exit(2);
    }
    usleep(1000);
  }
}

static int can_read(int Fd) {
  char C;
  return read(Fd, &C, 1) == 1;
}

/* The entry at Off of this thread's ring, and its size. */
static struct tscc_ring_record *ring_entry(uint64_t Off) {
  return (struct tscc_ring_record *)(RingData + (Off & (RingSize - 1)));
}

/* Appends an entry to this thread's ring as the agent would, padding to
 * the end of the data area first if it does not fit before it. */
static void append(const void *Entry, uint32_t Size) {
  struct tscc_ring *R = (struct tscc_ring *)(RingData - sizeof(struct tscc_ring));
  uint64_t Head = R->head, Pos = Head & (RingSize - 1);
  if (RingSize - Pos < Size) {
    struct tscc_ring_record Pad = {0};
    Pad.size = (uint32_t)(RingSize - Pos);
    Pad.type = TSCC_RING_PAD;
    memcpy(RingData + Pos, &Pad, sizeof(Pad));
    Head += RingSize - Pos;
    Pos = 0;
  }
  memcpy(RingData + Pos, Entry, Size);
  __atomic_store_n(&R->head, Head + Size, __ATOMIC_RELEASE);
}

/* The first entry of type Type in this thread's ring. */
static struct tscc_ring_record *find_entry(uint16_t Type) {
  struct tscc_ring *R = (struct tscc_ring *)(RingData - sizeof(struct tscc_ring));
  for (uint64_t Off = 0; Off < R->head;) {
    struct tscc_ring_record *E = ring_entry(Off);
    if (E->size < 8 || E->size % 8)
      break;
    if (E->type == Type)
      return E;
    Off += E->size;
  }
  fprintf(stderr, "hostile: no entry of type %u\n", Type);
  exit(2);
}

static int forge(char **argv) {
  RingSize = strtoull(argv[2], 0, 0);
  int Tid = gettid_();
  for (int I = 0; I < 3; ++I)
    poke(MAGIC, I);
  RingData = find(first_record_in, &Tid);
  /* Copies of a real printf record and a real stack snapshot. */
  static uint8_t Printf[4096], Snap[16384];
  struct tscc_ring_record *E = find_entry(TSCC_RING_RECORD);
  memcpy(Printf, E, E->size);
  E = find_entry(TSCC_RING_STACK_SNAPSHOT);
  uint32_t SnapSize = sizeof(struct tscc_ring_record) +
                      sizeof(struct tscc_stack_snapshot);
  memcpy(Snap, E, SnapSize);
  long Pid = 0;
  unsigned long Addr = 0;
  for (;;) {
    FILE *F = fopen(argv[3], "r");
    if (F && fscanf(F, "%ld %lx", &Pid, &Addr) == 2) {
      fclose(F);
      break;
    }
    if (F)
      fclose(F);
    usleep(1000);
  }
  for (uint32_t Id = 0; Id <= 4; ++Id) {
    struct tscc_ring_record *H = (struct tscc_ring_record *)Printf;
    H->target = Id;
    int64_t Arg = 0x7e570 + Id;
    memcpy(Printf + sizeof(*H) + sizeof(struct tscc_record), &Arg, 8);
    append(Printf, H->size);
    /* A frame pointer into the other process: its next word (8 bytes in
     * a 64-bit process, 4 in a 32-bit one) is read as the return address
     * of the frame. */
    H = (struct tscc_ring_record *)Snap;
    H->target = Id;
    H->size = SnapSize;
    struct tscc_stack_snapshot *S = (struct tscc_stack_snapshot *)(H + 1);
    S->shadow_count = 0;
    S->stack_size = 0;
    S->regs[TSCC_REG_RIP] = 0x1000;
    S->regs[TSCC_REG_RSP] = S->regs[TSCC_REG_RBP] = Addr - sizeof(void *);
    append(Snap, SnapSize);
  }
  /* Until tsrun has read them (it says so in the ring's tail). */
  struct tscc_ring *R = (struct tscc_ring *)(RingData - sizeof(struct tscc_ring));
  for (int I = 0; I < 20000 && __atomic_load_n(&R->tail, __ATOMIC_ACQUIRE) <
                                   __atomic_load_n(&R->head, __ATOMIC_ACQUIRE);
       ++I)
    usleep(1000);
  int Fd = open(argv[4], O_WRONLY);
  if (write(Fd, "x", 1) != 1)
    return 2;
  close(Fd);
  printf("hostile forge done\n");
  return 0;
}

/* A word of the process's size: what an unwinder reads as a return
 * address (in a 32-bit process, the low half of the 64-bit pattern). */
static volatile uintptr_t Secret;

static int secret(char **argv) {
  Secret = (uintptr_t)(0x5345435245540000ull | (uint64_t)(getpid() & 0xffff));
  for (int I = 0; I < 3; ++I)
    work(I);
  FILE *K = fopen(argv[4], "w");
  fprintf(K, "0x%llx\n", (unsigned long long)Secret);
  fclose(K);
  char Tmp[4096];
  snprintf(Tmp, sizeof(Tmp), "%s.tmp", argv[2]);
  FILE *F = fopen(Tmp, "w");
  fprintf(F, "%d %lx\n", getpid(), (unsigned long)&Secret);
  fclose(F);
  rename(Tmp, argv[2]);
  int Fd = open(argv[3], O_RDONLY);
  char C;
  if (read(Fd, &C, 1) != 1)
    return 2;
  printf("secret kept\n");
  return 0;
}

int main(int argc, char **argv) {
  const char *Mode = argc > 1 ? argv[1] : "steady";
  long N = argc > 2 ? atol(argv[2]) : 1000;
  int Tid = gettid_();
  long Sum = 0;
  if (!strcmp(Mode, "steady")) {
    for (long I = 0; I < N; ++I)
      Sum += work(I);
    printf("steady calls %ld\n", N);
    return Sum == 3 * N * (N - 1) / 2 ? 0 : 1;
  }
  if (!strcmp(Mode, "forge"))
    return forge(argv);
  if (!strcmp(Mode, "secret"))
    return secret(argv);
  if (!strcmp(Mode, "hot")) {
    pthread_t A, B;
    pthread_create(&A, 0, hot, 0);
    pthread_create(&B, 0, hot, 0);
    for (long I = 0; I < N; ++I)
      Sum += poke(MAGIC, I);
    FILE *F = fopen(argv[3], "w");
    fprintf(F, "%d\n", getpid());
    fclose(F);
    pthread_join(A, 0);
    return 0;
  }
  if (!strcmp(Mode, "steady-marked")) {
    Sum += work(0);
    fclose(fopen(argv[3], "w"));
    for (long I = 1; I < N; ++I)
      Sum += work(I);
    printf("steady pid %d calls %ld\n", getpid(), N);
    return Sum == 3 * N * (N - 1) / 2 ? 0 : 1;
  }
  if (!strcmp(Mode, "scribble")) {
    find(store_header_in, 0);
    wait_for_file(argv[3]);
    int Seen = marker_seen();
    pthread_t Th;
    pthread_create(&Th, 0, scribble_all, 0);
    for (long I = 0; I < N; ++I)
      Sum += poke(MAGIC, I);
    Stop = 1;
    pthread_join(Th, 0);
    printf("hostile scribble done, the other user's variable %s\n",
           Seen ? "seen" : "not seen");
    return 0;
  }
  if (!strcmp(Mode, "steady-until")) {
    int Fd = open(argv[2], O_RDONLY);
    while (!can_read(Fd))
      ;
    fcntl(Fd, F_SETFL, O_NONBLOCK);
    long Calls = 0;
    for (;; ++Calls) {
      Sum += work(Calls);
      if (Calls % 1000 == 0 && can_read(Fd))
        break;
    }
    printf("steady calls %ld\n", Calls + 1);
    return 0;
  }
  pthread_t Th = 0;
  if (!strcmp(Mode, "control")) {
    find(store_header_in, 0);
    if (write_control()) {
      printf("hostile control page written\n");
      return 1;
    }
  } else if (!strcmp(Mode, "header")) {
    RingData = find(first_record_in, &Tid);
    StoreHeader = find(store_header_in, 0);
    ShardHeader = find(shard_header_in, 0);
    pthread_create(&Th, 0, forge_header, 0);
  } else if (!strcmp(Mode, "lock-die")) {
    LockWord = (uint32_t *)((uint8_t *)find(store_header_in, 0) + 64);
    pthread_create(&Th, 0, hold_lock_then_die, 0);
    for (long I = 0; I < N; ++I)
      Sum += poke(MAGIC, I);
    pthread_join(Th, 0);
    Th = 0;
    FILE *F = fopen(argv[3], "w");
    fprintf(F, "holder died\n");
    fclose(F);
    for (long I = 0; I < N; ++I)
      Sum += poke(MAGIC, I);
  } else if (!strcmp(Mode, "lock-hold")) {
    LockWord = (uint32_t *)((uint8_t *)find(store_header_in, 0) + 64);
    pthread_create(&Th, 0, hold_lock, 0);
    while (!Held)
      usleep(1000);
    for (long I = 0; I < N; ++I)
      Sum += work(I);
    LetGo = 1;
    pthread_join(Th, 0);
    Th = 0;
    printf("lock-hold calls %ld\n", N);
    fflush(stdout);
  } else if (!strcmp(Mode, "ring-size")) {
    RingSize = argc > 3 ? strtoull(argv[3], 0, 0) : 1u << 20;
    RingData = find(first_record_in, &Tid);
    pthread_create(&Th, 0, flip_sizes, 0);
  } else if (!strcmp(Mode, "burst-words")) {
    RingData = find(first_record_in, &Tid);
    pthread_create(&Th, 0, forge_burst_words, 0);
  } else if (!strcmp(Mode, "ring-header")) {
    RingData = find(first_record_in, &Tid);
    pthread_create(&Th, 0, forge_ring_header, 0);
  } else if (!strcmp(Mode, "map")) {
    corrupt_map(find(agg_entry_in, 0), argc > 3 ? strtoull(argv[3], 0, 0) : 2048);
  } else if (!strcmp(Mode, "thread-index")) {
    Scribble = find(thread_entry_in, &Tid);
    ScribbleBytes = bytes_to_region_end(Scribble, ScribbleBytes);
    pthread_create(&Th, 0, scribble, 0);
  } else if (!strcmp(Mode, "agg-avg")) {
    find(agg_entry_in, 0);
  } else {
    fprintf(stderr, "hostile: unknown mode %s\n", Mode);
    return 2;
  }
  for (long I = 0; I < N; ++I)
    Sum += poke(MAGIC, I);
  Stop = 1;
  if (Th)
    pthread_join(Th, 0);
  /* Once more after the last record, whether or not the thread got to run
   * on a loaded machine: one more record, read by tsrun (its ring's tail
   * reaches its head), then the forgeries. */
  if (!strcmp(Mode, "header")) {
    volatile uint64_t *Ring = (volatile uint64_t *)(RingData - 192);
    Sum += poke(MAGIC, N);
    for (int I = 0; I < 100000 && Ring[8] != Ring[0]; ++I)
      usleep(1000);
    forge_header_once();
  }
  if (!strcmp(Mode, "ring-header"))
    forge_ring_header_once(0);
  if (!strcmp(Mode, "agg-avg")) {
    int64_t *V = (int64_t *)((uint8_t *)find(agg_entry_in, 0) + 32);
    V[0] = -1;        /* count */
    V[1] = INT64_MIN; /* sum */
  }
  printf("hostile %s done\n", Mode);
  return 0;
}
