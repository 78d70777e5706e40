import CScan

/// What the quiet walk (`cscan_skip_quiet_lines`) reads: the prefilter's rule gate, and its scanner for
/// the room a scan needs. Valid while its `Prefilter` lives.
public struct QuietEntryGate: @unchecked Sendable {
    let gate: UnsafePointer<cscan_rule_gate>
    let scanner: LiteralScanner.Tables
}
