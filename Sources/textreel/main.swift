import Foundation
import TextReelMarkdown

let help = """
Usage: textreel <command> [options]

Renders Markdown documents with attachments into PNG frames of a scrolling text view.

Commands:
  render    render frames of a document (see `textreel render --help`)
  diff      compare two PNGs pixel by pixel
  test      run golden-image suites
  report    serve a report with accept buttons (report --serve DIR)
  review    walk the failing frames in the terminal and accept changes
  merge-reports  merge the blobs of sharded test runs into one set of reports
  merge-renders  join the parts of a sharded render (render --shard I/N) into one folder
  preview   show where every fragment sits, in the terminal
  generate  write a generated Markdown document of N paragraphs
  version   print the version and the libraries it renders with
  completions  print shell completions (bash, zsh, fish)
  explore   run random scripts, check every frame, shrink a failing script into a golden case

Exit status: 0 ok, 1 a golden mismatch or a failed check (test, render --strict, explore), 2 bad input or usage.
"""

func fail(_ message: String, status: Int32) -> Never {
    Terminal.write(message + "\n", to: STDERR_FILENO)
    exit(status)
}

// Under Bazel, scratch goes where the test protocol says.
if let scratch = ProcessInfo.processInfo.environment["TEST_TMPDIR"], ProcessInfo.processInfo.environment["TMPDIR"] == nil {
    setenv("TMPDIR", scratch, 1)
}

// A closed pipe is reported where the write fails (a clear message), not by dying of SIGPIPE.
signal(SIGPIPE, SIG_IGN)
// Likewise a file-size limit (`ulimit -f`, as CI runners and containers set): the write that
// passes it fails with EFBIG and the render ends as on a full disk, instead of dying mid-line.
signal(SIGXFSZ, SIG_IGN)
// A frame's surface (2 MB at 800 × 600) is allocated and freed every frame, on several threads:
// glibc would map each one afresh (or give the heap's top back) and fault its pages in again.
// Kept in the heap below 32 MB, and trimmed only past 128 MB, they are reused instead.
_ = mallopt(-3 /* M_MMAP_THRESHOLD */, 32 << 20)
_ = mallopt(-1 /* M_TRIM_THRESHOLD */, 128 << 20)
var arguments = Array(CommandLine.arguments.dropFirst())
guard let command = arguments.first else { fail(help, status: 2) }
arguments.removeFirst()
do {
    switch command {
    case "-h", "--help", "help":
        print(help)
    case "--version", "version":
        if let extra = arguments.first, extra == "--help" || extra == "-h" {
            print("Usage: textreel version\n\nPrints TextReel's version and the versions of the libraries it renders with (Pango,\nHarfBuzz, Cairo, FreeType, fontconfig) and its fonts. Also: textreel --version.")
        } else if let extra = arguments.first {
            fail("textreel: error: version takes no arguments, got '\(extra)'; run `textreel --help` for usage", status: 2)
        } else {
            print(Version.description)
        }
    case "completions":
        exit(try CompletionsCommand.run(arguments))
    case "render":
        exit(try RenderCommand.run(arguments))
    case "diff":
        exit(try DiffCommand.run(arguments))
    case "test":
        exit(try TestCommand.run(arguments))
    case "test-worker":
        // Started by `textreel test` for each worker; not for people (see CaseWorkers).
        exit(try CaseWorkers.serve())
    case "report":
        exit(try ReportCommand.run(arguments))
    case "review":
        exit(try ReviewCommand.run(arguments))
    case "merge-reports":
        exit(try MergeReportsCommand.run(arguments))
    case "merge-renders":
        exit(try MergeRendersCommand.run(arguments))
    case "preview":
        exit(try PreviewCommand.run(arguments))
    case "generate":
        exit(try GenerateCommand.run(arguments))
    case "explore":
        exit(try ExploreCommand.run(arguments))
    default:
        fail("textreel: unknown command '\(command)'; run `textreel --help` for the list", status: 2)
    }
} catch let error as TextReelError {
    fail("textreel: \(error)", status: error.exitStatus)
} catch let error as Arguments.UsageError {
    fail("textreel: \(error.message); run `textreel \(command) --help` for usage", status: 2)
} catch let error as TextViewError {
    fail("textreel: \(error)", status: 2)
} catch {
    fail("textreel: \(error)", status: 2)
}

/// glibc's `mallopt(3)` (declared in malloc.h, which Swift's Glibc module leaves out).
@_silgen_name("mallopt") private func mallopt(_ parameter: Int32, _ value: Int32) -> Int32
