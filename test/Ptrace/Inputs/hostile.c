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
 *
 * And two that are not hostile, for the tests of stopped and killed
 * processes:
 *   hot N FIFO      two threads call poke() without end; after N calls
 *                   the pid goes to FIFO
 *   steady-until FIFO   calls work() from when a byte can be read from FIFO
 *                   until the next one, then prints "steady calls N"
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAGIC 0x5ca1ab1e0ddba11ll

__attribute__((noipa)) long poke(long Key, long V) { return Key ^ V; }
__attribute__((noipa)) long work(long I) { return I * 3; }

struct region {
  uint8_t *Lo, *Hi;
  int Writable;
};
static struct region Regions[16];
static int RegionCount;
static volatile int Stop;

static int gettid_(void) { return (int)syscall(SYS_gettid); }

static void find_regions(void) {
  FILE *F = fopen("/proc/self/maps", "r");
  char Line[512];
  RegionCount = 0;
  while (F && fgets(Line, sizeof(Line), F) && RegionCount < 16) {
    unsigned long Lo, Hi;
    char Perm[8];
    if (!strstr(Line, "memfd:tscc") ||
        sscanf(Line, "%lx-%lx %7s", &Lo, &Hi, Perm) != 3)
      continue;
    Regions[RegionCount++] =
        (struct region){(uint8_t *)Lo, (uint8_t *)Hi, Perm[1] == 'w'};
  }
  if (F)
    fclose(F);
}

/* Calls Fn on every resident page of the writable tscc mappings until it
 * returns something. */
static void *scan(void *(*Fn)(uint8_t *Page, void *Arg), void *Arg) {
  for (int R = 0; R < RegionCount; ++R) {
    if (!Regions[R].Writable)
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
 * (data model LP64) naming this thread, at the start of a ring's data
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
    if (Type == 1 && Model == 1 && T == Tid && Size >= 40 && Size % 8 == 0)
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

static uint32_t *Scribble;

static void *scribble(void *A) {
  (void)A;
  while (!Stop)
    for (size_t I = 0; I < 65536 / 4; ++I)
      Scribble[I] = 1;
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

static void *hot(void *A) {
  long Sum = 0;
  for (long I = 0;; ++I)
    Sum += poke(MAGIC, I);
  return (void *)Sum;
}

static int can_read(int Fd) {
  char C;
  return read(Fd, &C, 1) == 1;
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
  if (!strcmp(Mode, "lock-die")) {
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
  } else if (!strcmp(Mode, "ring-size")) {
    RingData = find(first_record_in, &Tid);
    RingSize = argc > 3 ? strtoull(argv[3], 0, 0) : 1u << 20;
    pthread_create(&Th, 0, flip_sizes, 0);
  } else if (!strcmp(Mode, "thread-index")) {
    Scribble = find(thread_entry_in, &Tid);
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
  if (!strcmp(Mode, "agg-avg")) {
    int64_t *V = (int64_t *)((uint8_t *)find(agg_entry_in, 0) + 32);
    V[0] = -1;        /* count */
    V[1] = INT64_MIN; /* sum */
  }
  printf("hostile %s done\n", Mode);
  return 0;
}
