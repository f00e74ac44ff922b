//===- SplitCommand.cpp - Shell-like word splitting for -c -----------------===//

#include "tscc/Runtime/Driver.h"

bool tscc::rt::splitCommand(const std::string &Cmd,
                            std::vector<std::string> &Argv,
                            std::string &Error) {
  std::string Word;
  bool InWord = false;
  for (size_t I = 0; I < Cmd.size(); ++I) {
    char C = Cmd[I];
    if (C == ' ' || C == '\t' || C == '\n') {
      if (InWord)
        Argv.push_back(std::move(Word));
      Word.clear();
      InWord = false;
      continue;
    }
    InWord = true;
    if (C == '\\' && I + 1 < Cmd.size()) {
      Word += Cmd[++I];
    } else if (C == '\'' || C == '"') {
      size_t End = Cmd.find(C, I + 1);
      // Inside double quotes a backslash still escapes " and \.
      if (C == '"') {
        std::string Q;
        size_t J = I + 1;
        for (; J < Cmd.size() && Cmd[J] != '"'; ++J) {
          if (Cmd[J] == '\\' && J + 1 < Cmd.size() &&
              (Cmd[J + 1] == '"' || Cmd[J + 1] == '\\'))
            ++J;
          Q += Cmd[J];
        }
        End = J < Cmd.size() ? J : std::string::npos;
        if (End != std::string::npos)
          Word += Q;
      } else if (End != std::string::npos) {
        Word += Cmd.substr(I + 1, End - I - 1);
      }
      if (End == std::string::npos) {
        Error = std::string("unterminated ") + C + " in command '" + Cmd + "'";
        return false;
      }
      I = End;
    } else {
      Word += C;
    }
  }
  if (InWord)
    Argv.push_back(std::move(Word));
  return true;
}
