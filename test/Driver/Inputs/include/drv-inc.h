struct from_include { int a; long b; };
#define FROM_INCLUDE 7
