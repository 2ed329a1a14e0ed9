// swift-tools-version:6.0
import PackageDescription

// The Swift client of layoutd, as a package of its own: the protocol's types (generated from
// proto/, committed) and a client, on swift-protobuf alone. The repository's root manifest
// builds the same sources for layoutctl, the daemon and the tests.
let package = Package(
    name: "LayoutdClient",
    platforms: [.macOS(.v15)],
    products: [
        // An async, pipelined client (AsyncLayoutClient) and a blocking one (LayoutClient).
        .library(name: "LayoutdClient", targets: ["LayoutdClient"]),
        // The protocol alone: messages, framing, socket paths, the hello checks.
        .library(name: "LayoutProtocol", targets: ["LayoutProtocol"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-protobuf.git", from: "1.39.0"),
    ],
    targets: [
        .target(name: "LayoutProtocol", dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")]),
        .target(name: "LayoutdClient", dependencies: ["LayoutProtocol"]),
    ]
)
