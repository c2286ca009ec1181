// swift-tools-version: 6.0
//
// LenientCodable depends on nothing but the Swift toolchain. The benchmark harness lives in
// the separate package under Benchmarks/, which depends on this one by path.

import PackageDescription

let package = Package(
    name: "LenientCodable",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .macCatalyst(.v16), .visionOS(.v1)],
    products: [
        .library(name: "LenientCodable", targets: ["LenientCodable"]),
        .executable(name: "lenient-demo", targets: ["LenientCodableDemo"]),
    ],
    targets: [
        .target(name: "LenientCodable"),
        .executableTarget(
            name: "LenientCodableDemo",
            dependencies: ["LenientCodable"],
            resources: [.copy("Payloads")]
        ),
        .testTarget(
            name: "LenientCodableTests",
            dependencies: ["LenientCodable"],
            exclude: ["Fixtures"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
