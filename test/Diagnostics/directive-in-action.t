// Preprocessor lines belong to the declaration section.
// RUN: not %tscc %s -o %t.o 2>&1 | FileCheck %s

@@BEGIN {
  #define X 1
// CHECK: [[#@LINE-1]]:3: error: preprocessor directives are only allowed at the top level of a script
}
