import CDLogCore
/// Where a crash happened, as a headline names it: the thread or queue, the first frame past the trap and
/// exception machinery, the binary that frame is in (the app, a system framework, a third-party one), and
/// the Core Data / SwiftData / CloudKit / SQLite API the app called on the way (issue 24).
///
/// Contract: the frames read are the exception backtrace when there is one (it is where the exception was
/// raised), else the crashed thread's; frames of the trap and throw machinery (`libsystem_*`, `libobjc`,
/// `libc++abi`, `libswiftCore`'s assertion frames, `__exceptionPreprocess`, `-[NSAssertionHandler …]`) are
/// skipped. A binary is "the app" when it is named like the process, a system framework when Apple ships
/// it (`systemImages`, a `.dylib`, a `com.apple.` bundle id), and a third-party framework otherwise (or
/// "the app or a framework it ships" when the report does not name the process). Thread 0 is the main
/// thread. A process the system killed (`SIGKILL`) has no crash place.
public enum CrashPlace {
    /// Apple frameworks a crashing frame is commonly in (the image names crash reports print).
    static let systemImages: Set<String> = [
        "UIKitCore", "UIKit", "Foundation", "CoreFoundation", "CoreData", "SwiftData", "CloudKit", "SwiftUI",
        "SwiftUICore", "AppKit", "QuartzCore", "CoreGraphics", "CFNetwork", "Security", "WebKit", "AVFoundation",
        "MapKit", "Photos", "PhotosUI", "Contacts", "EventKit", "HealthKit", "StoreKit", "UserNotifications",
        "BackgroundTasks", "WidgetKit", "CoreLocation", "CoreMotion", "CoreText", "ImageIO", "Metal", "GraphicsServices",
        "FrontBoardServices", "BaseBoard", "RunningBoardServices", "Combine", "Observation", "os", "AppleAccount",
        "CoreServices", "LaunchServices", "IOKit", "Accelerate", "Network", "CoreSpotlight", "Intents", "dyld",
        "UIFoundation", "TextKit", "CoreAnimation", "SpringBoardServices", "AttributeGraph", "libswiftCore",
    ]

    /// Images and symbols of the machinery that raises a trap or an exception.
    static let machineryImages: Set<String> = [
        "libsystem_kernel.dylib", "libsystem_pthread.dylib", "libsystem_c.dylib", "libc++abi.dylib", "libc++abi",
        "libobjc.A.dylib", "libswiftCore.dylib", "libsystem_platform.dylib", "libdyld.dylib",
    ]
    static let machinerySymbols = ["__exceptionPreprocess", "objc_exception_throw", "NSAssertionHandler", "_CFThrowFormattedException",
                                   "-[NSException raise]", "+[NSException raise:format:", "_assertionFailure", "swift_unexpectedError"]

    static let persistenceImages: Set<String> = ["CoreData", "SwiftData", "CloudKit", "libsqlite3.dylib", "com.apple.CoreData"]

    public struct Place {
        public var thread: String?
        public var frame: String?
        public var binary: String?
        public var persistenceCall: String?
    }

    public static func place(of report: CrashReport) -> Place {
        var place = Place()
        // A process the system killed (SIGKILL: a watchdog, a file lock, jetsam) did not crash anywhere: its
        // threads were wherever they were.
        guard report.signal != "SIGKILL" else { return place }
        let crashed = report.faultingThread.map { report.threads[$0] }
        if let crashed {
            place.thread = report.isResourceReport ? "the heaviest stack"
                : crashed.isMain || (crashed.number == 0 && crashed.queue == nil) ? "the main thread"
                : "thread \(crashed.number)" + (crashed.queue.map { " (\($0))" } ?? crashed.name.map { " (\($0))" } ?? "")
        }
        let frames = report.lastExceptionBacktrace.isEmpty ? (crashed?.frames ?? []) : report.lastExceptionBacktrace
        let first = frames.prefix(64).first { frame in
            if let image = frame.image, machineryImages.contains(image) { return false }
            if let symbol = frame.symbol, machinerySymbols.contains(where: { symbol.contains($0) }) { return false }
            return frame.image != nil
        }
        if let first, let image = first.image {
            place.frame = first.display
            place.binary = binaryKind(image, appName: report.appName)
        }
        // The API the app called: the outermost frame of the first run of Core Data / SwiftData / CloudKit /
        // SQLite frames (deepest first, the run ends where the caller's frames begin).
        let window = Array(frames.prefix(64))
        if let start = window.firstIndex(where: { $0.image.map(persistenceImages.contains) ?? false }) {
            var end = start
            while end + 1 < window.count, window[end + 1].image.map(persistenceImages.contains) ?? false { end += 1 }
            let call = window[end].display
            if call != place.frame { place.persistenceCall = call }
        }
        return place
    }

    /// True for Apple's binaries: a known system framework, a `.dylib`, a `com.apple.` bundle id.
    public static func isSystemImage(_ image: String) -> Bool {
        systemImages.contains(image) || image.hasSuffix(".dylib") || image.hasPrefix("com.apple.")
    }

    /// "the app (Notes)", "system framework UIKitCore", "third-party framework Realm".
    static func binaryKind(_ image: String, appName: String?) -> String {
        if let appName, image == appName || image.hasPrefix(appName + " ") { return "the app (\(image))" }
        if isSystemImage(image) {
            return "system framework \(image)"
        }
        // Without the process name, an image that is not Apple's may be the app itself.
        return appName == nil ? "\(image) (the app or a framework it ships)" : "third-party framework \(image)"
    }
}
