import Foundation
@_spi(Testing) @testable import CDLogKit
@testable import CrashReports

/// Locates crash fixtures next to this file (works with `swift test` on Linux and macOS without bundles).
enum CrashFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/crash")

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    static func entries(_ name: String) throws -> [Entry] {
        try CrashReportReader.entries(fromDocument: bytes(name), source: name)
    }

    static var all: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { !$0.hasSuffix(".md") }.sorted()
    }
}

extension Entry {
    func field(_ name: String) -> String? {
        presetFields.first(where: { $0.name == name })?.value
    }
}
