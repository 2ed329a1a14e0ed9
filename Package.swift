// swift-tools-version:6.2
import PackageDescription

// One system-library target per C library; pkg-config finds the headers, apt names the package.
let package = Package(
    name: "layoutd",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "layoutd", targets: ["layoutd"]),
        .executable(name: "layoutctl", targets: ["layoutctl"]),
        // Lays text out; links no Cairo and no PCRE2. The engine with its fonts and the system's
        // Unicode services (`FontRegistry.load`, `SystemUnicode`, which `ParagraphLayouter(fonts:)` takes). LayoutRender draws
        // what it lays out; LayoutRules compiles formatting rules' patterns.
        .library(name: "LayoutEngine", targets: ["LayoutEngine", "LayoutFonts", "LayoutUnicode"]),
        .library(name: "LayoutRender", targets: ["LayoutRender"]),
        .library(name: "LayoutRules", targets: ["LayoutRules"]),
        .library(name: "LayoutWire", targets: ["LayoutWire"]),
        // What a Swift program needs to talk to layoutd: the protocol's types and a client,
        // without the engine (no HarfBuzz, FreeType or Cairo is linked).
        .library(name: "LayoutdClient", targets: ["LayoutdClient"]),
        .library(name: "LayoutProtocol", targets: ["LayoutProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
    ],
    targets: [
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CPCRE2", pkgConfig: "libpcre2-16", providers: [.apt(["libpcre2-dev"])]),
        .systemLibrary(name: "CFriBidi", pkgConfig: "fribidi", providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CCairo", pkgConfig: "cairo-ft", providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // Thai has no spaces between words: libthai's dictionary finds them (editing's word boundaries).
        .systemLibrary(name: "CThai", pkgConfig: "libthai", providers: [.apt(["libthai-dev"])]),
        // libhyphen has no pkg-config file: its header and library are in the default paths.
        .systemLibrary(name: "CHyphen", providers: [.apt(["libhyphen-dev"])]),
        // The daemon's allocator (docs/design.md, "The allocator"); no pkg-config file either.
        .systemLibrary(name: "CMimalloc", providers: [.apt(["libmimalloc-dev"])]),

        // The fatal-signal report: a signal handler must be async-signal-safe, so it is C.
        .target(name: "CFatalSignal"),
        // Chinese, Japanese, Lao, Khmer and Burmese words by ICU's dictionaries (editing's word
        // boundaries), behind a header that names no ICU type (see word_dictionary.h).
        .target(name: "CWordDictionary", linkerSettings: [.linkedLibrary("icuuc")]),

        // The Unicode adapter: bidi levels (FriBidi), words by dictionary (ICU, libthai) and
        // hyphenation patterns (libhyphen), in Swift values the engine asks for.
        // The core: the pipeline in Swift alone; fonts, Unicode, drawing and rules are adapters
        // above it that implement its protocols.
        .target(name: "LayoutEngine"),
        // Above the engine: loaded faces and their shaping (`FaceShaping`, `ShapingLibrary`).
        .target(name: "LayoutFonts", dependencies: ["LayoutEngine", "CFreeType", "CHarfBuzz", "CFontconfig"]),
        // Above the engine: it implements the engine's `UnicodeServices` (`SystemUnicode`).
        .target(name: "LayoutUnicode", dependencies: ["LayoutEngine", "CFriBidi", "CThai", "CHyphen", "CWordDictionary"]),
        // Formatting rules' patterns, PCRE2 at the engine's edge: the engine runs rules through
        // `RulePattern`, so a program without rules links no PCRE2.
        .target(name: "LayoutRules", dependencies: ["LayoutEngine", "CPCRE2"]),
        // The render stage, Cairo at the engine's edge: a program that only lays text out links no Cairo.
        .target(name: "LayoutRender", dependencies: ["LayoutEngine", "LayoutFonts", "CCairo", "CFreeType", "CHarfBuzz"]),
        // The wire alone: the generated protobuf types, framing and the fast readers. No engine.
        // The client's two targets live in clients/swift, which is also a package of its own (with
        // swift-protobuf alone) that other Swift programs depend on; one copy of the code, two manifests.
        .target(name: "LayoutProtocol", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
                path: "clients/swift/Sources/LayoutProtocol"),
        // The wire meeting the engine: requests turned into engine values, layouts into replies.
        .target(name: "LayoutWire", dependencies: [
            "LayoutEngine", "LayoutFonts", "LayoutUnicode", "LayoutRender", "LayoutRules", "LayoutProtocol",
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        ]),
        .target(name: "LayoutdClient", dependencies: ["LayoutProtocol"], path: "clients/swift/Sources/LayoutdClient"),
        .target(name: "LayoutServer", dependencies: [
            "LayoutEngine", "LayoutFonts", "LayoutUnicode", "LayoutRender", "LayoutWire", "CFatalSignal",
            .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"),
            .product(name: "Logging", package: "swift-log"),
            .product(name: "Prometheus", package: "swift-prometheus"),
        ]),
        .executableTarget(name: "layoutd", dependencies: [
            "LayoutServer", "LayoutWire", "LayoutFonts", "CMimalloc",
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
            .product(name: "Logging", package: "swift-log"),
        ]),
        .executableTarget(name: "layoutctl", dependencies: [
            "LayoutdClient", "LayoutProtocol",
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        .executableTarget(name: "layoutd-bench", dependencies: [
            "LayoutEngine", "LayoutFonts", "LayoutUnicode", "LayoutRules", "LayoutWire", "LayoutdClient", "LayoutServer", "CHarfBuzz",
            .product(name: "SwiftProtobuf", package: "swift-protobuf"),
        ], path: "Benchmarks/LayoutBench"),

        // The README's Swift example, as written (a test runs it and checks the README still
        // shows this file): a program on the client product alone.
        .executableTarget(name: "layoutd-swift-example", dependencies: ["LayoutdClient"], path: "Examples/SwiftClient"),

        // The libFuzzer target (scripts/fuzz.sh); built plainly it replays inputs.
        .executableTarget(name: "layoutd-fuzz", dependencies: ["LayoutServer"], path: "Fuzz/LayoutFuzz"),

        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "LayoutEngineTests", dependencies: ["LayoutEngine", "LayoutFonts", "LayoutUnicode", "CFreeType", "TestSupport"],
                    exclude: ["Golden", "LayoutDumps", "HarfBuzzInHouse"]),
        .testTarget(name: "LayoutFontsTests", dependencies: ["LayoutFonts", "LayoutEngine", "CHarfBuzz"]),
        .testTarget(name: "LayoutRulesTests", dependencies: ["LayoutEngine", "LayoutFonts", "LayoutUnicode", "LayoutRules", "TestSupport"]),
        // RenderReferences/ holds the pictures the renderer's output is compared with.
        .testTarget(name: "LayoutRenderTests", dependencies: ["LayoutEngine", "LayoutFonts", "LayoutUnicode", "LayoutRender", "CCairo", "TestSupport"],
                    exclude: ["RenderReferences"]),
        // Vectors/ holds wire bytes the tests and the C and Python clients read by path.
        .testTarget(name: "LayoutWireTests", dependencies: ["LayoutWire", "LayoutFonts", "LayoutUnicode", "TestSupport"], exclude: ["Vectors"]),
        // FuzzRegressions/ holds inputs the fuzzers found, read by path.
        .testTarget(name: "LayoutServerTests", dependencies: ["LayoutServer", "LayoutFonts", "LayoutdClient", "LayoutWire", "LayoutUnicode", "TestSupport",
                                                           .product(name: "NIOPosix", package: "swift-nio"),
                                                           .product(name: "NIOEmbedded", package: "swift-nio")],
                    exclude: ["FuzzRegressions"]),
    ],
    swiftLanguageModes: [.v6]
)

// A bare Int(someDouble) traps on NaN, infinity or overflow; SaturatingConversion.swift shadows
// those initializers with deprecated ones, and this makes using them an error in every target.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.treatWarning("DeprecatedDeclaration", as: .error)]
}

// Release builds of the request path skip the run-time exclusivity checks: every access to a
// class's stored property (swift-protobuf's message storage, the layout scratch) went through
// swift_beginAccess, about 9,000 instructions a layout request through the daemon (issue 17).
// Debug builds, which the tests run, keep the checks; the compiler's static checks stay on.
for name in ["LayoutUnicode", "LayoutFonts", "LayoutEngine", "LayoutRender", "LayoutRules", "LayoutProtocol", "LayoutWire", "LayoutServer"] {
    let target = package.targets.first { $0.name == name }!
    target.swiftSettings = (target.swiftSettings ?? []) + [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]
}
