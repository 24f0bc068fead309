// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "newsgen",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "newsgen", targets: ["newsgen"]),
        .library(name: "NewsgenCore", targets: ["NewsgenCore"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // Already a dependency of Hummingbird; named here because `serve --watch` is a Service.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(name: "CNewsgenShims"),
        .target(
            name: "NewsgenCore",
            dependencies: [
                "CLibXML2",
                "CNewsgenShims",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            exclude: ["Validate/Schemas"],
            plugins: ["EmbedFiles"]
        ),
        // Templates/ and the .rng schemas, embedded into the binary at build time.
        .executableTarget(name: "EmbedFilesTool", path: "Plugins/EmbedFilesTool"),
        .plugin(name: "EmbedFiles", capability: .buildTool(), dependencies: ["EmbedFilesTool"]),
        .executableTarget(
            name: "newsgen",
            dependencies: [
                "NewsgenCore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "NewsgenCoreTests",
            dependencies: [
                "NewsgenCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "newsgenTests",
            dependencies: [
                "newsgen",
                "NewsgenCore",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
