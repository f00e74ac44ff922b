//===- tsreport.cpp - Render a binary trace written by tsrun -f binary ----===//
//
//   tsreport TRACE.bin [-f text|json] [-o FILE] [--format-file FILE] [-v]
//   tsreport TRACE.bin --to ctf DIR | --to perfetto FILE [--format-file FILE]
//   tsreport --describe PROBE.o|TRACE.bin
//
//===----------------------------------------------------------------------===//

#include "tscc/ClosestName.h"
#include "tscc/Runtime/DescribeObject.h"
#include "tscc/Runtime/Export.h"
#include "tscc/Runtime/TraceFile.h"
#include "tscc/Runtime/TraceFormat.h"
#include "tscc/abi.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>

#ifndef TSCC_VERSION
#define TSCC_VERSION "0.1.0"
#endif

using namespace tscc::rt;

namespace {

struct Options {
  std::string Trace, Output, FormatFile;
  bool Json = false, Verbose = false, Describe = false;
  /// --to ctf|perfetto, and the directory or file it writes.
  std::string ExportTo, ExportPath;
};

void usage(FILE *F) {
  fputs(
      "usage: tsreport TRACE.bin [-f text|json] [-o FILE] "
      "[--format-file FILE] [-v]\n"
      "       tsreport TRACE.bin --to ctf DIR [--format-file FILE]\n"
      "       tsreport TRACE.bin --to perfetto FILE [--format-file FILE]\n"
      "       tsreport --describe PROBE.o|TRACE.bin\n"
      "\n"
      "Renders a binary trace written by 'tsrun -f binary -o TRACE.bin'.\n"
      "\n"
      "  -f text|json          output format (default text)\n"
      "  -o FILE               write to FILE instead of stdout\n"
      "  --to ctf DIR          write a CTF 1.8 trace into DIR (babeltrace2,\n"
      "                        Trace Compass)\n"
      "  --to perfetto FILE    write Chrome JSON trace events to FILE (- for\n"
      "                        stdout; ui.perfetto.dev, trace_processor)\n"
      "  --format-file FILE    print trace() hooks with the stanzas of FILE\n"
      "  --describe            print the tables of a probe object (or of the\n"
      "                        object a trace was written with) by name\n"
      "  -v, --verbose         also report attachments, exits and counters\n"
      "  -h, --help            this help\n"
      "  --version             the version, and the object ABI and trace\n"
      "                        format it reads\n",
      F);
}

int fail(const std::string &Msg) {
  fprintf(stderr, "tsreport: error: %s\n", Msg.c_str());
  return 1;
}

/// "unknown option '--verbse'; did you mean '--verbose'?"
int unknownOption(const std::string &A) {
  static constexpr std::string_view Known[] = {
      "--help",        "--version", "--verbose", "--describe", "--to",
      "--format-file", "-f",        "-o",        "-v",         "-h"};
  std::string_view Best = tscc::closestName(A, Known);
  return fail(
      "unknown option '" + A + "'" +
      (Best.empty() ? "" : "; did you mean '" + std::string(Best) + "'?"));
}

/// 0: parsed; 1: error; 2: help or version shown.
int parse(int Argc, char **Argv, Options &O) {
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    auto Value = [&](std::string &Into) {
      if (I + 1 >= Argc) {
        fail("option '" + A + "' needs a value");
        return false;
      }
      Into = Argv[++I];
      return true;
    };
    std::string V;
    if (A == "-h" || A == "--help") {
      usage(stdout);
      return 2;
    }
    if (A == "--version") {
      printf("tsreport (tscc runtime) %s, object ABI %d.%d, trace format %u\n",
             TSCC_VERSION, TSCC_ABI_MAJOR, TSCC_ABI_MINOR, TraceVersion);
      return 2;
    }
    if (A == "-v" || A == "--verbose") {
      O.Verbose = true;
    } else if (A == "--describe") {
      O.Describe = true;
    } else if (A == "-f") {
      if (!Value(V))
        return 1;
      if (V != "text" && V != "json")
        return fail("unknown output format '" + V +
                    "' (expected text or json)");
      O.Json = V == "json";
    } else if (A == "--to") {
      if (!Value(O.ExportTo))
        return 1;
      if (O.ExportTo != "ctf" && O.ExportTo != "perfetto")
        return fail("unknown export format '" + O.ExportTo +
                    "' (expected ctf or perfetto)");
      if (!Value(O.ExportPath))
        return 1;
    } else if (A == "-o") {
      if (!Value(O.Output))
        return 1;
    } else if (A == "--format-file") {
      if (!Value(O.FormatFile))
        return 1;
    } else if (A.size() > 1 && A[0] == '-') {
      return unknownOption(A);
    } else if (O.Trace.empty()) {
      O.Trace = A;
    } else {
      return fail("more than one trace file given");
    }
  }
  if (O.Trace.empty())
    return fail(O.Describe ? "no probe object or trace file given"
                           : "no trace file given");
  if (O.Describe && (O.Json || !O.Output.empty() || !O.ExportTo.empty()))
    return fail("'--describe' prints to stdout; it takes no -f, -o or --to");
  if (!O.ExportTo.empty() && (O.Json || !O.Output.empty() || O.Verbose))
    return fail("'--to' writes its own output; it takes no -f, -o or -v");
  return 0;
}

} // namespace

int main(int Argc, char **Argv) {
  Options O;
  if (int R = parse(Argc, Argv, O))
    return R == 2 ? 0
                  : (fputs("Try 'tsreport --help' for more information.\n",
                           stderr),
                     1);
  signal(SIGPIPE, SIG_IGN);
  std::string Err;
  if (O.Describe) {
    // A probe object, or a trace, which carries the object it came from.
    std::string ObjErr;
    if (std::unique_ptr<ProbeProgram> P = ProbeProgram::load(O.Trace, ObjErr)) {
      describeObject(*P, stdout);
      return fflush(stdout) == 0 ? 0 : fail("writing the output failed");
    }
    std::unique_ptr<TraceReader> Reader = TraceReader::open(O.Trace, Err);
    if (!Reader)
      return fail(ObjErr);
    describeObject(Reader->program(), stdout);
    return fflush(stdout) == 0 ? 0 : fail("writing the output failed");
  }
  std::unique_ptr<TraceFormatFile> Formats;
  if (!O.FormatFile.empty() &&
      !(Formats = TraceFormatFile::load(O.FormatFile, Err))) {
    // Syntax errors already read "FILE:LINE:COL: error: ...", like clang's.
    if (Err.find(": error: ") == std::string::npos)
      return fail(Err);
    fprintf(stderr, "%s\n", Err.c_str());
    return 1;
  }
  std::unique_ptr<TraceReader> Reader = TraceReader::open(O.Trace, Err);
  if (!Reader)
    return fail(Err);

  const ProbeProgram &P = Reader->program();
  std::unique_ptr<OutputSink> Sink;
  ExportOptions Export{Formats.get()};
  if (O.ExportTo == "ctf") {
    if (!(Sink = createCtfSink(P, O.ExportPath, Export, Err)))
      return fail(Err);
  } else {
    std::string Path = O.ExportTo.empty() ? O.Output : O.ExportPath;
    FILE *Out = stdout;
    if (!Path.empty() && Path != "-" && !(Out = fopen(Path.c_str(), "we")))
      return fail(Path + ": " + strerror(errno));
    if (!O.ExportTo.empty())
      Sink = createPerfettoSink(P, Out, Out != stdout, Export);
    else if (O.Json)
      Sink = createJsonSink(P, Out, Out != stdout);
    else
      Sink = createTextSink(P, Out, Out != stdout,
                            TextOptions{stderr, O.Verbose, true});
  }

  bool Ok = Reader->replay(
      *Sink,
      [&](const RecordOrigin &Origin, const RecordView &R) {
        std::optional<std::string> Text;
        if (Formats)
          Text = Formats->render(P, Origin, R);
        if (!Text) {
          Sink->record(Origin, R);
          return;
        }
        RecordView V = R;
        V.Text = &*Text;
        V.Label = &Formats->find(R.Header.id)->Label;
        Sink->record(Origin, V);
      },
      Err);
  if (!Ok) {
    // What was read is rendered, but nothing may claim the trace was whole.
    Sink->finishIncomplete();
    return fail(Err);
  }
  if (!Sink->ok())
    return fail(std::string("writing the output failed: ") +
                strerror(Sink->writeError() ? Sink->writeError() : EIO));
  return 0;
}
