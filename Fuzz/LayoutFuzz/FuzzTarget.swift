import Foundation
import LayoutServer

// libFuzzer's entry point: scripts/fuzz.sh builds this target with -sanitize=fuzzer and
// -DLAYOUTD_FUZZING, and main hands over to libFuzzer's driver. Built plainly (as CI and
// `swift build` do), the target is a replayer: `layoutd-fuzz FILE...` answers each file as the
// fuzzer would, so a crash the fuzzer found repeats without the fuzzing toolchain.
let processor: RequestProcessor = {
    do { return try RequestProcessor.standalone(configuration: ServerConfiguration(requestBudgetMilliseconds: 2_000)) } catch {
        fatalError("layoutd-fuzz: cannot load the default fonts: \(error)")
    }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func layoutdFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    FuzzEntry.answer(UnsafeRawBufferPointer(start: data, count: size), processor: processor)
    return 0
}

#if LAYOUTD_FUZZING
/// libFuzzer's driver (LLVM 11 and later), for programs whose main is their own: SwiftPM names
/// an executable's entry point itself, so libFuzzer's main cannot be used directly.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> Int32) -> Int32

@main
enum Fuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, layoutdFuzzTestOneInput))
    }
}
#else
@main
enum Replay {
    static func main() throws {
        let paths = CommandLine.arguments.dropFirst()
        guard !paths.isEmpty else {
            FileHandle.standardError.write(Data("usage: layoutd-fuzz FILE... (replays inputs; scripts/fuzz.sh fuzzes)\n".utf8))
            exit(2)
        }
        for path in paths {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            let replies = bytes.withUnsafeBytes { FuzzEntry.answer($0, processor: processor) }
            print("\(path): \(bytes.count) bytes, \(replies) replies")
        }
    }
}
#endif
