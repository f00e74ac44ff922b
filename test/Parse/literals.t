// Integer, character and string literals with C's rules.
// RUN: %tscc --dump-ast %s 2>&1 | FileCheck %s

@@BEGIN {
  x = 42;          // CHECK: IntegerLiteral {{.*}} 42{{$}}
  x = 0;           // CHECK: IntegerLiteral {{.*}} 0{{$}}
  x = 0x2aUL;      // CHECK: IntegerLiteral {{.*}} 42 radix=16 suffix=ul
  x = 017;         // CHECK: IntegerLiteral {{.*}} 15 radix=8
  x = 10u;         // CHECK: IntegerLiteral {{.*}} 10 suffix=u{{$}}
  x = 10LL;        // CHECK: IntegerLiteral {{.*}} 10 suffix=ll
  x = 10llu;       // CHECK: IntegerLiteral {{.*}} 10 suffix=ull
  x = 0b101;       // CHECK: IntegerLiteral {{.*}} 5 radix=2
  x = 18446744073709551615u; // CHECK: IntegerLiteral {{.*}} 18446744073709551615 suffix=u
  c = 'a';         // CHECK: CharLiteral {{.*}} 97
  c = '\n';        // CHECK: CharLiteral {{.*}} 10
  c = '\x41';      // CHECK: CharLiteral {{.*}} 65
  c = '\101';      // CHECK: CharLiteral {{.*}} 65
  c = '\0';        // CHECK: CharLiteral {{.*}} 0
  c = '\377';      // CHECK: CharLiteral {{.*}} -1
  c = '\'';        // CHECK: CharLiteral {{.*}} 39
  s = "tab\there\\ \"q\" \x7e\101";
  // CHECK: StringLiteral <[[#@LINE-1]]:7, [[#@LINE-1]]:7> "tab\there\\ \"q\" ~A"
  s = "con" "cat"
      "enated";
  // CHECK: StringLiteral <[[#@LINE-2]]:7, [[#@LINE-1]]:7> "concatenated"
  s = "nul\0inside";
  // CHECK: StringLiteral {{.*}} "nul\x00inside"
}
