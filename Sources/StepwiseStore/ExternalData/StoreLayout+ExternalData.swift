import StepwiseModel

/// A column holding values of an external-storage attribute: a marker byte, then the bytes
/// (`0x01`) or the name of a file in the store's ``ExternalDataFolder`` (`0x02`).
package struct ExternalDataColumn: Sendable, Hashable, Codable {
    /// The table, e.g. `ZUSER`.
    package var table: String
    /// The column, e.g. `ZIMAGEMEDIUMDATA`.
    package var column: String

    /// - parameters:
    ///   - table: The table.
    ///   - column: The column.
    package init(table: String, column: String) {
        self.table = table
        self.column = column
    }
}

extension StoreLayout {
    /// Whether `attribute`'s values are marker-encoded (`0x01` or `0x02` first): a Binary
    /// attribute with `allowsExternalBinaryDataStorage`. Looked up in the model by the entity
    /// that declares it, so an inherited attribute answers as its declaration does.
    ///
    /// - parameter attribute: An attribute of this layout.
    package func storesExternally(_ attribute: AttributeLayout) -> Bool {
        guard attribute.type == .binary else { return false }
        return model[entity: attribute.declaringEntity]?.attribute(named: attribute.name)?
            .allowsExternalBinaryDataStorage ?? false
    }

    /// The columns of every external-storage attribute, once each (subentities share their
    /// root's columns), in table order.
    package var externalDataColumns: [ExternalDataColumn] {
        var seen: Set<ExternalDataColumn> = []
        var columns: [ExternalDataColumn] = []
        for entity in entities {
            for attribute in entity.attributes where storesExternally(attribute) {
                let column = ExternalDataColumn(table: attribute.table, column: attribute.column)
                if seen.insert(column).inserted { columns.append(column) }
            }
        }
        return columns.sorted { ($0.table, $0.column) < ($1.table, $1.column) }
    }
}
