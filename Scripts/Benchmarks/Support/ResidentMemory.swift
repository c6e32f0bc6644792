import Foundation

/// The process's resident memory as Linux reports it in `/proc/self/status`.
///
/// `VmHWM` is the peak resident set size so far ("high water mark"), the number
/// `/usr/bin/time -v` reports as "Maximum resident set size"; `VmRSS` is the current one.
/// Both are nil where `/proc` is unavailable (macOS).
struct ResidentMemory {
    var peakKilobytes: Int?
    var currentKilobytes: Int?

    /// Reads `/proc/self/status` now.
    static func now() -> ResidentMemory {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else {
            return ResidentMemory()
        }
        func value(_ key: String) -> Int? {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(key + ":") }) else {
                return nil
            }
            // "VmHWM:	   61234 kB"
            return line.split(separator: " ", omittingEmptySubsequences: true)
                .compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first
        }
        return ResidentMemory(peakKilobytes: value("VmHWM"), currentKilobytes: value("VmRSS"))
    }

    /// Kilobytes as megabytes (1 MB = 1024 kB, as `time -v` counts), or "n/a".
    static func megabytes(_ kilobytes: Int?) -> String {
        guard let kilobytes else { return "n/a" }
        return String(format: "%.1f MB", Double(kilobytes) / 1024)
    }
}
