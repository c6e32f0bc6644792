import StepwiseModel
import StepwiseStore

// Join tables through a renumbering step: their names and columns carry entity numbers.
extension InPlacePlan {
    /// The source join table a destination join table continues when entity numbers change:
    /// the join table of the source to-many the owner's mapping reads, same shape (to-many,
    /// ordered or not, onto the entity the destination's continues), with its columns by role.
    static func joinTableOrigin(
        of table: TableLayout, _ entityName: String, _ relationshipName: String, mappings: [String: EntityMapping],
        source: StoreLayout, destination: StoreLayout, continues: (String, String) -> Bool
    ) -> JoinTablePlan? {
        guard let mapping = mappings[entityName],
            let sourceEntity = mapping.sourceEntity.flatMap({ source.entity(named: $0) }),
            let destinationRelationship = destination.entity(named: entityName)?.relationship(named: relationshipName),
            let expression = mapping.relationshipMappings.first(where: { $0.name == relationshipName })?
                .valueExpression,
            let path = sourceRelationshipPath(expression), path.count == 1,
            let sourceRelationship = sourceEntity.relationship(named: path[0]),
            sourceRelationship.isToMany, destinationRelationship.isToMany,
            sourceRelationship.isOrdered == destinationRelationship.isOrdered,
            continues(sourceRelationship.destination, destinationRelationship.destination),
            case .joinTable(let sourceTableName, let sourceOwner, let sourceMember, let sourceOrder) =
                sourceRelationship.storage,
            case .joinTable(_, let owner, let member, let order) = destinationRelationship.storage,
            (sourceOrder == nil) == (order == nil),
            let sourceTable = source.table(named: sourceTableName)
        else { return nil }
        var columns = [owner: sourceOwner, member: sourceMember]
        if let order, let sourceOrder { columns[order] = sourceOrder }
        // An ordered inverse keeps its own order column in the same table.
        func inverseOrder(of relationship: RelationshipLayout, in layout: StoreLayout) -> String? {
            guard let inverse = relationship.inverse,
                case .joinTable(_, _, _, let order)? = layout.entity(named: relationship.destination)?
                    .relationship(named: inverse)?.storage
            else { return nil }
            return order
        }
        switch (
            inverseOrder(of: destinationRelationship, in: destination), inverseOrder(of: sourceRelationship, in: source)
        ) {
        case (nil, nil): break
        case (let order?, let sourceOrder?): columns[order] = sourceOrder
        default: return nil
        }
        // Every column of both tables accounted for, with the same declared types.
        guard Set(columns.keys.map { $0.uppercased() }) == Set(table.columns.map { $0.name.uppercased() }),
            Set(columns.values.map { $0.uppercased() }) == Set(sourceTable.columns.map { $0.name.uppercased() }),
            columns.allSatisfy({ table.column(named: $0.key)?.type == sourceTable.column(named: $0.value)?.type })
        else { return nil }
        return JoinTablePlan(source: sourceTable.name, destination: table, columns: columns)
    }
}
