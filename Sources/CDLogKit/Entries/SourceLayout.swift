import CDLogCore

/// What the splitter reads once from a source's first bytes (`FormatDetector.sampleBytes`), so that every
/// block of a parallel run splits the source alike: whether bare lines open messages among prefixed ones,
/// the width a page or a mail client broke its long lines at, and whether a copy set a blank line after
/// every line.
public struct SourceLayout: Sendable, Equatable {
    /// `FormatDetector.isMostlyBare`: bare lines among the prefixed ones open messages.
    public var bareLinesOpen: Bool
    /// `wrapWidth(of:format:)`: the column the text was broken at, when its lines show one.
    public var wrapWidth: Int?
    /// `isSpaced(_:format:)`: a copy that set a blank line after every line; one blank line is no break.
    public var spaced: Bool
    /// `hasMetadataTrailers(_:format:)`: Xcode's console copied with its metadata, each message closed by a
    /// `Type: … | Timestamp: …` line.
    public var metadataTrailers: Bool

    public init(bareLinesOpen: Bool = false, wrapWidth: Int? = nil, spaced: Bool = false, metadataTrailers: Bool = false) {
        self.bareLinesOpen = bareLinesOpen
        self.wrapWidth = wrapWidth
        self.spaced = spaced
        self.metadataTrailers = metadataTrailers
    }

    /// The layout `sample` (a source's first bytes) shows for a source of `format`.
    public init(sample: ArraySlice<UInt8>, format: InputFormat) {
        self.init(bareLinesOpen: FormatDetector.isMostlyBare(sample, format: format),
                  wrapWidth: SourceLayout.wrapWidth(of: sample, format: format),
                  spaced: SourceLayout.isSpaced(sample, format: format),
                  metadataTrailers: SourceLayout.hasMetadataTrailers(sample, format: format))
    }

    /// True when the sample is Xcode's console (Xcode 15 and later) copied with its metadata shown: bare text in
    /// which some line is a message's metadata, `Type: Error | Timestamp: 2026-01-04 04:49:28.800620-08:00 |
    /// Process: App | Library: CoreData | Subsystem: com.apple.coredata | Category: error | TID: 0x6a582d`
    /// (`EntrySplitter.isMetadataTrailer`). Such a copy closes every message with that line (`Type: stdio` under
    /// the app's standard output, which Xcode groups in runs of lines): the splitter reads a message's blank lines
    /// and its lines that open no entry by themselves as the message's, up to its metadata line. Decided once per
    /// source from the detection sample, like `wrapWidth`.
    public static func hasMetadataTrailers(_ sample: ArraySlice<UInt8>, format: InputFormat) -> Bool {
        guard format == .xcode else { return false }
        var found = false
        FormatDetector.forEachSampleLine(sample) { line in
            if !found, EntrySplitter.metadataTrailerEnd(line).map({ line.hasPrefix(" | Timestamp: ", at: $0) }) == true {
                found = true
            }
            return true
        }
        return found
    }

    /// True when the sample's text lines are each followed by a blank line, as a copy out of a web page
    /// that prints one paragraph a line sets them (bare console text only): at least three text lines, and
    /// at most one in twenty directly followed by another text line. Such a text's single blank lines are the copy's, not the
    /// program's: the splitter reads past them (a run of two or more still counts as a blank line). Decided
    /// once per source from the detection sample, like `wrapWidth`.
    public static func isSpaced(_ sample: ArraySlice<UInt8>, format: InputFormat) -> Bool {
        // Prefixed formats keep a blank line inside a message and read a bare sentence after one as a
        // message of its own (`EntrySplitter.startsParagraph`): their blank lines say something even there.
        guard format == .xcode else { return false }
        var textLines = 0, adjacent = 0, previousWasText = false
        FormatDetector.forEachSampleLine(sample) { line in
            let text = line.contains { !ByteClass.isBlank($0) }
            if text {
                textLines += 1
                if previousWasText { adjacent += 1 }
            }
            previousWasText = text
            return true
        }
        return textLines >= 3 && adjacent * 20 <= textLines
    }

    /// The column at which a page, a mail client or a commit editor broke the sample's long lines, or nil
    /// when its lines do not show one. Text broken at a width W has no line with a blank inside wider than
    /// W, and the lines it broke stop where the next line's first word would not have fitted: a line of
    /// `w` characters followed, at the left margin, by a word of `f` with `w + 1 + f > W` (a forced break).
    /// W is taken as the widest line with a blank inside (60 to 100 characters: commit editors break at 72,
    /// mail at 72 to 78, pages at 80); the sample shows it when at least three of its lines within 20
    /// characters of W end in a forced break and the breaks that were not forced (a shorter word would have
    /// fitted) are at most a third as many. A break before a printed structure rather than a wrapper's line
    /// counts neither way: the next line indented, opening with a date or a time (`04-14 11:26:34…`,
    /// `[20:55:14.375]`), with the same first word as the line above (`[IMPORT] …` twice: a logger's lines),
    /// or with anything else that opens a message wherever it stands (`EntrySplitter.opensMessageAnywhere`);
    /// a logger's lines among broken ones neither show nor hide the width. Console text is
    /// rarely that regular: its lines vary widely and are often wider than 100. A text with one or two
    /// breaks shows nothing (its widest line is likely a broken one). Decided once per source from the
    /// detection sample, like `isMostlyBare`.
    public static func wrapWidth(of sample: ArraySlice<UInt8>, format: InputFormat) -> Int? {
        guard format != .crashReport, format != .logJSON, format != .logNDJSON else { return nil }
        // Per sample line: its width, its first word's width and bytes, whether it opens at the left margin
        // and whether it has a blank inside.
        var lines: [(width: Int, firstWord: Int, word: ArraySlice<UInt8>, atMargin: Bool, hasBlank: Bool, opens: Bool,
                     trailing: Int)] = []
        FormatDetector.forEachSampleLine(sample) { line in
            var end = line.count
            while end > 0, ByteClass.isBlankOrCR(line[end - 1]) { end -= 1 }
            var trailing = 0
            for index in end..<line.count where ByteClass.isBlank(line[index]) { trailing += 1 }
            var start = 0
            while start < end, ByteClass.isBlank(line[start]) { start += 1 }
            var width = 0, firstWord = 0, wordEnd = start, inFirstWord = true, hasBlank = false
            for index in 0..<end where line[index] & 0xC0 != 0x80 {
                width += 1
                guard index >= start else { continue }
                if ByteClass.isBlank(line[index]) {
                    if inFirstWord { wordEnd = index }
                    inFirstWord = false
                    hasBlank = true
                } else if inFirstWord { firstWord += 1 }
            }
            if inFirstWord { wordEnd = end }
            lines.append((width, firstWord, ArraySlice(line[start..<wordEnd]), start == 0, hasBlank,
                          start == 0 && EntrySplitter.opensMessageAnywhere(line), trailing))
            return true
        }
        guard let widest = lines.lazy.filter(\.hasBlank).map(\.width).max(), (60...100).contains(widest) else { return nil }
        var forced = 0, unforced = 0
        for (line, next) in zip(lines, lines.dropFirst()) where line.hasBlank && line.width >= widest - 20 && next.width > 0 {
            // A printed structure after the line says nothing about a wrapper either way.
            guard next.atMargin, next.word != line.word, !next.opens else { continue }
            // Blanks a wrapper left at the end of a line (the padding between `log show`'s columns, broken
            // inside the run) count: the word after them had no room.
            if line.width + 1 + next.firstWord > widest || (line.trailing > 0 && line.width + line.trailing + 1 + next.firstWord > widest) {
                forced += 1
            } else { unforced += 1 }
        }
        return forced >= 3 && forced >= 3 * unforced ? widest : nil
    }

    /// True when `word` (a line's first) is a date or a time of day: a digit first, and a `-`, `/`, `.` or `:`
    /// between digits (`04-14`, `2024-01-10`, `14.02.16`, `12:08:15.750|`), after one bracket a logger may
    /// set around it (`[20:55:14.375]`).
    static func opensWithDateOrTime<Bytes: Collection<UInt8>>(_ word: Bytes) -> Bool {
        var digits = word[...]
        if digits.first == UInt8(ascii: "[") || digits.first == UInt8(ascii: "(") { digits = digits.dropFirst() }
        guard let first = digits.first, ByteScan.isDigit(first) else { return false }
        var previousDigit = false, separated = false
        for byte in digits {
            if ByteScan.isDigit(byte) {
                if separated { return true }
                previousDigit = true
            } else if previousDigit, byte == 0x2D || byte == 0x2E || byte == 0x2F || byte == 0x3A {  // - . / :
                separated = true
                previousDigit = false
            } else {
                return false
            }
        }
        return false
    }
}
