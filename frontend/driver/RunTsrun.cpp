//===- RunTsrun.cpp - `tscc --run`: compile, then trace -------------------===//
#include "RunTsrun.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/wait.h>
#include <unistd.h>

using namespace tscc;

namespace {
std::atomic<pid_t> Child{0};

void forward(int Sig) {
  if (pid_t P = Child.load())
    kill(P, Sig);
}

std::string findTsrun(const char *Argv0) {
  static int Anchor;
  std::string Self = llvm::sys::fs::getMainExecutable(Argv0, &Anchor);
  if (!Self.empty()) {
    llvm::SmallString<256> Beside(llvm::sys::path::parent_path(Self));
    llvm::sys::path::append(Beside, "tsrun");
    if (llvm::sys::fs::can_execute(Beside))
      return std::string(Beside);
  }
  if (auto InPath = llvm::sys::findProgramByName("tsrun"))
    return *InPath;
  return {};
}
} // namespace

std::string driver::createRunObjectPath(std::string &Error) {
  int FD = -1;
  llvm::SmallString<128> Path;
  // createTemporaryFile makes the file 0600 in $TMPDIR (or /tmp).
  if (std::error_code EC =
          llvm::sys::fs::createTemporaryFile("tscc-run", "o", FD, Path)) {
    Error = EC.message();
    return {};
  }
  close(FD);
  return std::string(Path);
}

int driver::runTsrun(const std::string &Object,
                     const std::vector<std::string> &Args, const char *Argv0) {
  std::string Tsrun = findTsrun(Argv0);
  if (Tsrun.empty()) {
    llvm::errs() << "tscc: error: --run: cannot find tsrun next to tscc or "
                    "in PATH\n";
    llvm::sys::fs::remove(Object);
    return 1;
  }
  std::vector<std::string> Argv{Tsrun, Object};
  Argv.insert(Argv.end(), Args.begin(), Args.end());
  std::vector<char *> CArgv;
  for (std::string &A : Argv)
    CArgv.push_back(A.data());
  CArgv.push_back(nullptr);

  // Until the handlers are in place, a signal must not kill tscc and leave
  // the object behind: block, fork, and let each side set itself up.
  std::string ExecFailed = "tscc: error: --run: cannot run '" + Tsrun + "'\n";
  sigset_t All, Old;
  sigfillset(&All);
  sigprocmask(SIG_SETMASK, &All, &Old);
  pid_t Pid = fork();
  if (Pid == 0) {
    sigprocmask(SIG_SETMASK, &Old, nullptr);
    // tsrun's hints then show `tscc ... --run`, not the temporary object.
    setenv("TSCC_RUN_BY_TSCC", "1", 1);
    execv(CArgv[0], CArgv.data());
    [[maybe_unused]] ssize_t N = write(2, ExecFailed.data(), ExecFailed.size());
    _exit(127);
  }
  int Saved = errno;
  if (Pid > 0) {
    Child = Pid;
    struct sigaction SA{};
    SA.sa_handler = forward;
    sigemptyset(&SA.sa_mask);
    SA.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &SA, nullptr);
    sigaction(SIGHUP, &SA, nullptr);
    // The terminal sends Ctrl-C and Ctrl-\ to tsrun as well; tsrun decides.
    signal(SIGINT, SIG_IGN);
    signal(SIGQUIT, SIG_IGN);
  }
  sigprocmask(SIG_SETMASK, &Old, nullptr);
  if (Pid < 0) {
    llvm::errs() << "tscc: error: --run: fork: " << strerror(Saved) << "\n";
    llvm::sys::fs::remove(Object);
    return 1;
  }
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR)
    ;
  llvm::sys::fs::remove(Object);
  if (WIFEXITED(Status))
    return WEXITSTATUS(Status);
  return WIFSIGNALED(Status) ? 128 + WTERMSIG(Status) : 1;
}
