// swift-tools-version: 6.0
//
// Fuzz targets for LenientCodable, a separate package so that the root Package.swift stays free of
// them. Each Fuzz* target is a libFuzzer entry point and builds only with `-sanitize=fuzzer`:
// see scripts/fuzz.sh. `Hostile` is a plain executable: see scripts/hostile.sh.

import PackageDescription

let package = Package(
    name: "LenientCodableFuzz",
    platforms: [.macOS(.v13)],
    dependencies: [.package(name: "LenientCodable", path: "..")],
    targets: [
        .target(name: "FuzzSupport", dependencies: [.product(name: "LenientCodable", package: "LenientCodable")]),
        .executableTarget(name: "FuzzParse", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzDecode", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzRoundTrip", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzDifferential", dependencies: ["FuzzSupport"]),
        .executableTarget(
            name: "FuzzFeatures", dependencies: [.product(name: "LenientCodable", package: "LenientCodable")]),
        .executableTarget(
            name: "FuzzJSONValue", dependencies: [.product(name: "LenientCodable", package: "LenientCodable")]),
        .executableTarget(
            name: "FuzzRetained", dependencies: [.product(name: "LenientCodable", package: "LenientCodable")]),
        // Not a fuzz target: the full-size hostile-input runs of scripts/hostile.sh, built without sanitizers.
        .executableTarget(
            name: "Hostile", dependencies: [.product(name: "LenientCodable", package: "LenientCodable")]),
    ],
    swiftLanguageModes: [.v6]
)
