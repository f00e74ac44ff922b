/* Shared by conversions-two-models.t and its traced program. */
struct bits {
  unsigned lo : 3;
  int s : 5;
  unsigned full : 32;
};
