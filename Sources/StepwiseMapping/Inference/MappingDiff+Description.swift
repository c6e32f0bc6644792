extension MappingDiff: CustomStringConvertible {
    /// The diff as text, one line per entity and per changed property.
    ///
    /// Markers: `=` unchanged, `~` changed or renamed, `+` added, `-` removed or left out.
    /// Properties kept as they were are counted, not listed. Entries whose data the step
    /// drops end in "rows dropped", "values dropped" or "links dropped".
    package var description: String {
        (["\(from) → \(to)"] + entities.flatMap(\.lines)).joined(separator: "\n")
    }
}

extension EntityDiff {
    /// The entity's line, then its parent change and its changed properties, indented.
    var lines: [String] {
        let abstract = isAbstract ? "abstract, " : ""
        var header: String
        switch change {
        case .added:
            header = "+ \(name): added (\(abstract)mapping \(mapping))"
        case .removed where mapping.isEmpty:
            header = "- \(name): removed (\(abstract)no mapping)"
        case .removed:
            header = "- \(name): removed (\(abstract)mapping \(mapping))"
        case .leftOut:
            header = "- \(name): left out of the mapping (\(abstract)in both versions)"
        case .renamed:
            header = "~ \(name): renamed from \(oldName ?? "?") (\(abstract)mapping \(mapping))"
        case .kept where mappingKind == .copy && parent == nil:
            let count = properties.count
            header = "= \(name): unchanged (\(abstract)\(count) \(count == 1 ? "property" : "properties"))"
            return ["  " + header]
        case .kept:
            header = "~ \(name): changed (\(abstract)mapping \(mapping))"
        }
        if dropped != nil { header += ", rows dropped" }
        var lines = ["  " + header]
        if let parent {
            lines.append("      parent: \(parent.from ?? "none") → \(parent.to ?? "none")")
        }
        let kept = properties.filter { $0.change == .kept && $0.notes.isEmpty }
        lines += properties.filter { !($0.change == .kept && $0.notes.isEmpty) }.map { "      " + $0.line }
        if !kept.isEmpty {
            lines.append("      = \(kept.count) \(kept.count == 1 ? "property" : "properties") kept")
        }
        return lines
    }
}

extension PropertyDiff {
    /// `+ rating: Integer 16, required, default 0`, `~ remoteID: renamed from remoteIdentifier`…
    var line: String {
        var details: [String]
        let marker: String
        switch change {
        case .added:
            marker = "+"
            details = [type]
        case .removed:
            marker = "-"
            details = [type]
        case .renamed:
            marker = "~"
            details = ["renamed from \(oldName ?? "?")"]
            if let widening { details.append("widened \(widening)") }
        case .widened:
            marker = "~"
            details = [widening.map { "widened \($0)" } ?? "\(oldType ?? "?") → \(type)"]
        case .kept:
            marker = "~"
            details = [type]
        }
        // A changed destination's note names the links it drops.
        if let dropped, dropped != .destinationChanged {
            details.append(kind == .relationship ? "links dropped" : "values dropped")
        }
        return "\(marker) \(name): \((details + notes).joined(separator: ", "))"
    }
}
