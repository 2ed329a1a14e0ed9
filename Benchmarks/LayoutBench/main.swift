import Foundation

// layoutd-bench: measures the paragraph pipeline against the HarfBuzz floor on the caption
// corpus, and round trips through a real daemon. Figures are written, not asserted.
let options = BenchOptions.parse(CommandLine.arguments.dropFirst())
let captions = try Corpus.load(options.corpusPath)
var report = Report(options: options, captionCount: captions.count)
if options.inProcess {
    report.add(try InProcessBench(captions: captions, options: options).run())
    // A profiling pass measures nothing worth keeping: the recorded results stay as they are.
    if ProcessInfo.processInfo.environment["LAYOUTD_BENCH_PROFILE"] != nil { exit(0) }
}
if options.tags {
    report.add(try TagBench(captions: captions, options: options).run())
}
if options.daemon {
    report.add(try DaemonBench(captions: captions, options: options).run())
}
if options.hit {
    report.add(try HitBench(captions: captions, options: options).run())
}
if options.edit {
    report.add(try EditBench(captions: captions, options: options).run())
}
if options.scaling {
    report.add(try ScalingBench(captions: captions, options: options).run())
}
if options.breaking {
    report.add(try BreakBench(captions: captions, options: options).run())
}
if options.clients {
    report.add(try await ClientBench(captions: captions, options: options).run())
}
if options.hostile {
    report.add(try HostileBench(captions: captions, options: options).run())
}
try report.write()
