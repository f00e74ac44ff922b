/* Shared by gcc-fidelity.c (the traced program, built with gcc -m32 and
 * -m64) and gcc-fidelity.t (the script): C that tscc once computed or
 * typed differently from gcc, or rejected. */
struct wide {
  unsigned long long b48 : 48;
  long long s40 : 40;
  unsigned long long u32 : 32;
  unsigned long long b33 : 33;
  int arr[4];
  long long ll;
  char c;
};
