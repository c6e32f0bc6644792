import StepwiseModel
import StepwiseStore

/// Whether pass 1's set-based path (``MigrationManager/createInstances(for:policy:)``) may
/// write an attribute in SQL when external storage is involved (``ExternalBinaryValue``).
///
/// SQL sees an external-storage column's marker and file name, not its bytes. So it may only
/// copy such a column verbatim into another external-storage attribute: the reference and its
/// file stay valid, no byte is read, and nothing changes for the common case of a kept
/// attribute. Anything else that reads or writes such a column (a conversion, a widening, a
/// literal, a column gaining or losing external storage) runs row by row, where
/// ``/StepwiseStore/ObjectContext`` reads the real bytes and writes them inline.
enum ExternalDataCopy {
    /// Whether the set-based path can write `attribute` from `expression`.
    ///
    /// - parameters:
    ///   - attribute: The destination attribute.
    ///   - expression: Its value expression; nil when it gets its default.
    ///   - widening: The mapping's inferred conversion, if any.
    ///   - planner: Resolves the expression's key paths over the source.
    static func allowsSQL(
        for attribute: Attribute, expression: Expression?, widening: TypeWidening?, planner: SourceJoinPlanner
    ) throws -> Bool {
        let writesExternal = attribute.type == .binary && attribute.allowsExternalBinaryDataStorage
        guard let expression else { return true }
        let readsExternal = try reads(expression, planner: planner)
        switch (writesExternal, readsExternal) {
        case (false, false): return true
        case (true, true):
            // A verbatim copy: one key path, nothing done to its value.
            if case .keyPath = expression, widening == nil { return true }
            return false
        case (true, false):
            // NULL needs no marker; anything else does.
            if case .constant(.null) = expression { return true }
            return false
        case (false, true):
            return false
        }
    }

    /// Whether `expression` is a key path to an external-storage attribute of the source.
    private static func reads(_ expression: Expression, planner: SourceJoinPlanner) throws -> Bool {
        guard case .keyPath(let root, let path) = expression, root == .source || root == .evaluatedObject else {
            return false
        }
        var scratch = planner
        guard let resolved = try scratch.resolve(path), case .attribute(let attribute) = resolved.target else {
            return false
        }
        return planner.layout.storesExternally(attribute)
    }
}
