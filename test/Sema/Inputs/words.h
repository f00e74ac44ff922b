/* A header whose typedef names do not end in _t. */
typedef unsigned long word;
typedef struct { int x, y; } pair;
