// swift-tools-version:6.1
// The libFuzzer targets of newsgen: a package of its own, so that the ordinary `swift build` and
// `swift test` of the repository never see a binary without `main`. Build and run with
// `Scripts/fuzz [SECONDS] [TARGET…]`, which passes `-sanitize=fuzzer,address`.
import PackageDescription

let package = Package(
    name: "newsgen-fuzz",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "newsgen", path: ".."),
    ],
    targets: [
        .target(name: "CFuzzerDriver"),
        // One binary for every target; NEWSGEN_FUZZ_TARGET names the one to run (see FuzzTarget).
        .executableTarget(
            name: "newsgen-fuzz",
            dependencies: ["CFuzzerDriver", .product(name: "NewsgenFuzzing", package: "newsgen")]
        ),
    ]
)
