// swift-tools-version:6.1
import PackageDescription

/// Every library layer imports its dependencies internally unless it says `public import`:
/// a layer's API shows only the layers below it that it means to.
let layer: [SwiftSetting] = [.enableUpcomingFeature("InternalImportsByDefault")]

let package = Package(
    name: "newsgen",
    // macOS 15: Synchronization's Mutex.
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "newsgen", targets: ["newsgen"]),
        // For the fuzz targets in Fuzz/ (a package of their own, built with libFuzzer).
        .library(name: "NewsgenFuzzing", targets: ["NewsgenFuzzing"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // Already dependencies of AsyncHTTPClient; named because HTTPFetcher reads their types.
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        // SHA-256 for the fingerprints of an incremental build (already a dependency of
        // AsyncHTTPClient's TLS stack).
        .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
        // Already a dependency of Hummingbird; named here because `serve --watch` is a Service.
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        // The layers, lowest first. Each depends only on layers above it in this list, so a cycle
        // is a compile error, and imports them internally unless its API shows their types:
        //
        //   NewsgenModel     values: articles, sources, reports, dates, language tags, text
        //   NewsgenXML       ← Model                  the libxml2 wrapper, XMLWriter, the JSON tree
        //   NewsgenConfig    ← Model, XML             site.json and saved.json
        //   NewsgenFetch     ← Model, XML, Config     HTTP with retry, providers, feed readers
        //   NewsgenStore     ← Model                  the SQLite cache
        //   NewsgenRender    ← Model, XML, Config     page models, templates, feed writers
        //   NewsgenValidate  ← Model, XML             libxml2 checks of every output file
        //   NewsgenExtract   ← Model, XML             the article extractor (a page's main text and metadata)
        //   NewsgenImages    ← Model, CVips           images made fit for the site with libvips
        //   NewsgenBuild     ← all of the above       the stages, the build, the lock, publishing
        //   newsgen (CLI)    ← Build, and the layers whose values its commands print
        .systemLibrary(
            name: "CLibXML2",
            pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]
        ),
        .systemLibrary(name: "CNewsgenShims"),
        // libvips (libvips-dev) for images: shrink-on-load decoding, resizing, WebP.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        // The executable's allocator on Linux: jemalloc (libjemalloc-dev; allocator.c says why).
        // Linked before the C library, so that its malloc and free are everyone's in the process.
        .target(
            name: "CNewsgenAllocator",
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
        ),
        // Value types: articles, sources, dates, language tags, text, slugs, URLs.
        .target(
            name: "NewsgenModel",
            dependencies: [.product(name: "Logging", package: "swift-log")],
            swiftSettings: layer
        ),
        // The one libxml2 wrapper, the XML writer, the one JSON tree.
        .target(name: "NewsgenXML", dependencies: ["NewsgenModel", "CLibXML2"], swiftSettings: layer),
        // Images made fit for the site with libvips.
        .target(name: "NewsgenImages", dependencies: ["NewsgenModel", "CVips"], swiftSettings: layer),
        // site.json and saved.json: reading, checking, editing.
        .target(name: "NewsgenConfig", dependencies: ["NewsgenModel", "NewsgenXML"], swiftSettings: layer),
        // HTTP with retry, the providers (feeds, NewsAPI, JSON news), the feed readers.
        .target(
            name: "NewsgenFetch",
            dependencies: [
                "NewsgenModel", "NewsgenXML", "NewsgenConfig",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPCompression", package: "swift-nio-extras"),
            ],
            swiftSettings: layer
        ),
        // The article cache on SQLite.
        .target(
            name: "NewsgenStore",
            dependencies: [
                "NewsgenModel",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            swiftSettings: layer
        ),
        // Page models, Mustache templates (the default theme embedded), feed writers.
        .target(
            name: "NewsgenRender",
            dependencies: [
                "NewsgenModel", "NewsgenXML", "NewsgenConfig",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            swiftSettings: layer
        ),
        // libxml2 checks of every output file against the embedded RELAX NG schemas and rules.
        .target(
            name: "NewsgenValidate",
            dependencies: ["NewsgenModel", "NewsgenXML"],
            exclude: ["Schemas"],
            swiftSettings: layer
        ),
        // The article extractor: a web page's main text, sanitized, and its metadata.
        .target(name: "NewsgenExtract", dependencies: ["NewsgenModel", "NewsgenXML"], swiftSettings: layer),
        // The stages as values, the build, its assembly, the lock and the publisher.
        .target(
            name: "NewsgenBuild",
            dependencies: [
                "NewsgenModel", "NewsgenXML", "NewsgenConfig", "NewsgenFetch", "NewsgenStore", "NewsgenExtract", "NewsgenImages",
                "NewsgenRender", "NewsgenValidate", "CNewsgenShims",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: layer
        ),
        // The readers of untrusted input as the fuzz targets (Fuzz/) and their regression tests drive them.
        .target(
            name: "NewsgenFuzzing",
            dependencies: ["NewsgenModel", "NewsgenXML", "NewsgenConfig", "NewsgenFetch"],
            swiftSettings: layer
        ),
        .executableTarget(
            name: "newsgen",
            dependencies: [
                "NewsgenModel", "NewsgenConfig", "NewsgenFetch", "NewsgenValidate", "NewsgenExtract", "NewsgenBuild", "CNewsgenAllocator",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Helpers the test targets share: temporary folders, loopback servers, fixtures, the
        // feedparser corpus, NewsAPI stand-ins.
        .target(
            name: "NewsgenTestSupport",
            dependencies: [
                "NewsgenModel", "NewsgenConfig", "NewsgenFetch",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/NewsgenTestSupport",
            exclude: ["Fixtures"]
        ),
        // Scripts/bench-grouping: grouping's quality on the labelled stories and the Lee corpus, and its time.
        .executableTarget(
            name: "GroupingBench",
            dependencies: ["NewsgenModel", "NewsgenTestSupport"],
            path: "Tests/GroupingBench"
        ),
        .testTarget(
            name: "NewsgenModelTests",
            dependencies: [
                "NewsgenModel", "NewsgenTestSupport",
            ]
        ),
        .testTarget(
            name: "NewsgenXMLTests",
            dependencies: ["NewsgenXML"]
        ),
        .testTarget(
            name: "NewsgenConfigTests",
            dependencies: [
                "NewsgenModel", "NewsgenConfig", "NewsgenTestSupport",
            ]
        ),
        .testTarget(
            name: "NewsgenFetchTests",
            dependencies: [
                "NewsgenModel", "NewsgenConfig", "NewsgenFetch", "NewsgenTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "NewsgenImagesTests",
            dependencies: ["NewsgenImages", "NewsgenTestSupport"]
        ),
        .testTarget(
            name: "NewsgenStoreTests",
            dependencies: [
                "NewsgenModel", "NewsgenStore", "NewsgenTestSupport",
            ]
        ),
        .testTarget(
            name: "NewsgenRenderTests",
            dependencies: [
                "NewsgenModel", "NewsgenXML", "NewsgenConfig", "NewsgenRender", "NewsgenValidate", "NewsgenTestSupport",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "NewsgenValidateTests",
            dependencies: [
                "NewsgenXML", "NewsgenRender", "NewsgenValidate", "NewsgenTestSupport",
            ]
        ),
        .testTarget(
            name: "NewsgenExtractTests",
            dependencies: ["NewsgenModel", "NewsgenXML", "NewsgenExtract"]
        ),
        .testTarget(
            name: "NewsgenBuildTests",
            dependencies: [
                "NewsgenModel", "NewsgenXML", "NewsgenConfig", "NewsgenFetch", "NewsgenStore", "NewsgenRender", "NewsgenValidate", "NewsgenBuild", "NewsgenTestSupport",
                "NewsgenFuzzing",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "newsgenTests",
            dependencies: [
                "newsgen", "NewsgenBuild", "NewsgenTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
    ]
)
