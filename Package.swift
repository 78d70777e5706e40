// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "cdlog",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "cdlog", targets: ["cdlog"]),
        .executable(name: "walcheck", targets: ["walcheck"]),
        .library(name: "CDLogKit", targets: ["CDLogKit"]),
        .library(name: "StoreInspection", targets: ["StoreInspection"]),
        .library(name: "CrashReports", targets: ["CrashReports"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
    ],
    targets: [
        // System libraries, found through pkg-config.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CPCRE2",
            pkgConfig: "libpcre2-8",
            providers: [.apt(["libpcre2-dev"]), .brew(["pcre2"])]
        ),
        // gzip'd logs are read through zlib.
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),

        // sysdiagnose archives (tar, gzip'd or not) are streamed through libarchive, never extracted.
        .systemLibrary(
            name: "CArchive",
            pkgConfig: "libarchive",
            providers: [.apt(["libarchive-dev"]), .brew(["libarchive"])]
        ),

        // Byte-level work in C, one file and header per job (include/cscan.h lists them): byte search, the
        // literal scanner's windows, JSON member scans, line headers, the quiet-entry walk, process set-up.
        .target(name: "CScan"),

        // Shared vocabulary: severities, categories, output sinks, JSON writing, exit codes.
        .target(name: "CDLogCore", dependencies: ["CScan"]),

        // Crash-report parsing, document in, reports out: .ips, legacy .crash text, Xcode's translated
        // reports, MetricKit payloads, hang / resource / jetsam reports, and the watchdog blame logic.
        .target(name: "CrashReports", dependencies: ["CDLogCore"]),

        // Log classification: input → format detection → entries → matching → classification → reports.
        .target(
            name: "CDLogKit",
            dependencies: [
                "CDLogCore", "CrashReports", "CPCRE2", "CScan", "CZlib",
                .product(name: "Yams", package: "Yams"),
            ],
            plugins: ["EmbedRules"]
        ),

        // walcheck's engine: read-only inspection of SQLite / Core Data stores.
        .target(name: "StoreInspection", dependencies: ["CDLogCore", "CSQLite"]),

        // sysdiagnose archives and folders: the app's crash, jetsam and resource reports, the device and OS,
        // what the logarchive holds and the `log show` command that extracts its window (nothing is written).
        .target(name: "Sysdiagnose", dependencies: ["CDLogCore", "CDLogKit", "CArchive"]),

        // What both executables share: exit-code and error-message behaviour.
        .target(
            name: "CLISupport",
            dependencies: ["CDLogCore", "CScan", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // Thin command-line front ends.
        // `cdlog report`: correlates classified entries, crash reports and store figures into diagnoses.
        .target(
            name: "ReportKit",
            dependencies: ["CDLogKit", "CDLogCore", "StoreInspection", "Sysdiagnose", .product(name: "Yams", package: "Yams")],
            plugins: ["EmbedRules"]
        ),

        .executableTarget(
            name: "cdlog",
            dependencies: [
                "CDLogKit", "CDLogCore", "StoreInspection", "CLISupport", "ReportKit", "Sysdiagnose",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "walcheck",
            dependencies: [
                "StoreInspection", "CDLogCore", "CLISupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // Build-time embedding of Rules/*.yaml into the CDLogKit binary.
        .executableTarget(name: "RuleEmbedder", path: "Sources/RuleEmbedder"),
        .plugin(name: "EmbedRules", capability: .buildTool(), dependencies: ["RuleEmbedder"]),

        .testTarget(name: "CDLogCoreTests", dependencies: ["CDLogCore"]),
        .testTarget(name: "CDLogKitTests", dependencies: ["CDLogKit", "CDLogCore", "CrashReports", .product(name: "Yams", package: "Yams")],
                    resources: [.copy("Fixtures")]),
        .testTarget(name: "StoreInspectionTests", dependencies: ["StoreInspection", "CDLogCore", "CSQLite"]),
        .testTarget(name: "SysdiagnoseTests", dependencies: ["Sysdiagnose", "CDLogKit", "CDLogCore"]),
        .testTarget(name: "ReportTests", dependencies: ["ReportKit", "CDLogKit", "CDLogCore", "StoreInspection", "CSQLite", .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "EndToEndTests", dependencies: ["CDLogCore"], exclude: ["Expected"]),
    ]
)
