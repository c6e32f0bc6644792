import Foundation
import StepwiseModel
import Testing

@Suite("Derived attributes: reading, writing, hashing and refusing derivations")
struct DerivationTests {
    /// Every shape the model editor offers, in each spelling read, with what it reads as and how
    /// Core Data prints it (`predicateFormat`, hashed).
    static let shapes: [(String, Derivation.Kind, String)] = [
        ("name", .keyPath(["name"]), "name"),
        (
            "additionalAttributes.cameraCaptureDevice", .keyPath(["additionalAttributes", "cameraCaptureDevice"]),
            "additionalAttributes.cameraCaptureDevice"
        ),
        ("items.@count", .count(relationship: ["items"]), "count:(items)"),
        ("count:(items)", .count(relationship: ["items"]), "count:(items)"),
        ("lowercase:(email)", .string(.lowercase, keyPath: ["email"]), "lowercase:(email)"),
        ("uppercase:(owner.name)", .string(.uppercase, keyPath: ["owner", "name"]), "uppercase:(owner.name)"),
        ("canonical:( title )", .string(.canonical, keyPath: ["title"]), "canonical:(title)"),
        ("now()", .now, "now()"),
        ("items.price.@sum", .aggregate(.sum, relationship: ["items"], attribute: "price"), "sum:(items.price)"),
        ("items.price.@total", .aggregate(.sum, relationship: ["items"], attribute: "price"), "sum:(items.price)"),
        ("sum:(items.price)", .aggregate(.sum, relationship: ["items"], attribute: "price"), "sum:(items.price)"),
        ("min:(items.price)", .aggregate(.min, relationship: ["items"], attribute: "price"), "min:(items.price)"),
        ("max:(items.price)", .aggregate(.max, relationship: ["items"], attribute: "price"), "max:(items.price)"),
        ("items.price.@max", .aggregate(.max, relationship: ["items"], attribute: "price"), "items.price.@max"),
    ]

    @Test(arguments: shapes.indices)
    func eachShapeIsRead(_ index: Int) throws {
        let (text, kind, format) = Self.shapes[index]
        let derivation = try #require(Derivation(parsing: text), "\(text)")
        #expect(derivation.kind == kind, "\(text)")
        #expect(derivation.expression == text)
        #expect(derivation.predicateFormat == format, "\(text)")
    }

    /// Expressions Core Data can't keep current with triggers (decompiled
    /// `NSSQLDerivedAttributeSQLGenerator`: no `average:`, no arithmetic, no constants).
    @Test(arguments: [
        "", "items.price.@avg", "average:(items.price)", "price * 2", "1", "'x'", "trim:(name)", "items.@count.x",
        "sum:(items)", "now(x)", "name.", "a..b", "$x", "SUBQUERY(items, $i, $i.price > 1).@count",
    ])
    func otherExpressionsAreNotRead(_ text: String) {
        #expect(Derivation(parsing: text) == nil, "\(text)")
    }

    static let shop = ObjectModel("Shop 2") {
        Entity("Customer") {
            Attribute("email", .string)
            Attribute.derived("emailKey", .string, "lowercase:(email)")
            Attribute.derived("orderCount", .integer64, "orders.@count")
            Attribute.derived("spent", .decimal, "orders.total.@sum")
            Attribute.derived("touched", .date, "now()")
            Relationship("orders", to: "Order", inverse: "customer").toMany()
        }
        Entity("Order") {
            Attribute("total", .decimal)
            Attribute("code", .string)
            Attribute("customerEmail", .string).derived("customer.email")
            Relationship("customer", to: "Customer", inverse: "orders")
        }
    }

    @Test func everySupportedShapeResolvesInAValidModel() throws {
        #expect(Self.shop.problems() == [])
        let customer = try #require(Self.shop[entity: "Customer"])
        #expect(
            customer.attributes.first { $0.name == "orderCount" }?.derivation?.kind == .count(relationship: ["orders"]))
        #expect(customer.attributes.first { $0.name == "email" }?.isDerived == false)
    }

    @Test func anUnsupportedExpressionIsRefusedByName() throws {
        let model = ObjectModel("Shop 3") {
            Entity("Customer") {
                Attribute("age", .integer16)
                Attribute.derived("meanAge", .double, "average:(friends.age)")
                Relationship("friends", to: "Customer", inverse: "friends").toMany()
            }
        }
        let problem = ModelProblem.unsupportedDerivation(
            entity: "Customer", attribute: "meanAge", expression: "average:(friends.age)")
        #expect(model.problems() == [problem])
        #expect(problem.description.contains("'Customer.meanAge'"))
        #expect(problem.description.contains("'average:(friends.age)'"))
        #expect(problem.description.contains("count:(toMany)"))
        #expect(throws: ModelError.self) { try model.validate(file: "Shop.xcdatamodel") }
    }

    /// Key paths that don't resolve as Core Data's triggers need, and what each problem says.
    @Test(arguments: [
        ("missing.email", "'Order' has no relationship 'missing'"),
        ("customer.nothing", "'Customer' has no stored attribute 'nothing'"),
        ("customer.orders", "'orders' is a relationship of 'Customer', where a stored attribute is needed"),
        ("customer.orders.total", "at most one to-one relationship"),
        ("code.email", "'code' is an attribute of 'Order', where a relationship is needed"),
        ("customer.@count", "'customer' is a to-one relationship, where a to-many is needed"),
        ("customer.total.@sum", "'customer' is a to-one relationship, where a to-many is needed"),
    ])
    func anUnresolvedKeyPathIsRefused(expression: String, reason: String) throws {
        var model = Self.shop
        let order = try #require(model.entities.firstIndex { $0.name == "Order" })
        model.entities[order].attributes.append(.derived("broken", .string, expression))
        let problems = model.problems()
        #expect(problems.count == 1, "\(expression)")
        guard case .unresolvedDerivation(let entity, let attribute, let text, let why)? = problems.first else {
            Issue.record("\(expression): \(problems)")
            return
        }
        #expect(entity == "Order" && attribute == "broken" && text == expression)
        #expect(why.contains(reason), "\(why)")
        #expect(problems[0].description.contains("fix the key path"))
    }

    @Test func aSourceModelRoundTrips() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("derivation-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        var model = Self.shop
        let customer = try #require(model.entities.firstIndex { $0.name == "Customer" })
        // An unsupported expression survives too, so the model is refused after a round trip.
        model.entities[customer].attributes.append(.derived("odd", .string, "price * 2"))
        let url = folder.appendingPathComponent("Shop.xcdatamodel")
        try XcodeModelWriter.writeVersion(model, to: url, validating: false)
        let contents = try String(contentsOf: url.appendingPathComponent("contents"), encoding: .utf8)
        #expect(contents.contains(#"derived="YES" derivationExpression="lowercase:(email)""#))
        #expect(contents.contains(#"derivationExpression="orders.total.@sum""#))
        let read = try XcodeModelReader.readVersion(at: url)
        #expect(read.entities == model.entities)
        #expect(read.entityVersionHashes == model.entityVersionHashes)
        #expect(
            read.problems() == [.unsupportedDerivation(entity: "Customer", attribute: "odd", expression: "price * 2")])
    }

    @Test func aSourceFileIsRead() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Asset" representedClassName="Asset" syncable="YES">
                    <attribute name="derivedCameraCaptureDevice" optional="YES" attributeType="Integer 16" \
            derived="YES" derivationExpression="additionalAttributes.cameraCaptureDevice" syncable="YES"/>
                    <relationship name="additionalAttributes" optional="YES" maxCount="1" deletionRule="Nullify" \
            destinationEntity="AdditionalAssetAttributes" inverseName="asset" inverseEntity="AdditionalAssetAttributes"/>
                </entity>
                <entity name="AdditionalAssetAttributes" syncable="YES">
                    <attribute name="cameraCaptureDevice" optional="YES" attributeType="Integer 16" syncable="YES"/>
                    <relationship name="asset" optional="YES" maxCount="1" deletionRule="Nullify" \
            destinationEntity="Asset" inverseName="additionalAttributes" inverseEntity="Asset"/>
                </entity>
            </model>
            """
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("derivation-\(UUID().uuidString)")
        let url = folder.appendingPathComponent("Photos.xcdatamodel")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try xml.write(to: url.appendingPathComponent("contents"), atomically: true, encoding: .utf8)
        let model = try XcodeModelReader.readVersion(at: url)
        let attribute = try #require(model[entity: "Asset"]?.attributes.first)
        #expect(attribute.derivation?.kind == .keyPath(["additionalAttributes", "cameraCaptureDevice"]))
        #expect(model.problems() == [])
    }

    /// Core Data hashes a derived attribute by its expression's `predicateFormat` alone
    /// (``VersionHasher``): the expression changes the hash; its name, type and flags don't.
    @Test func theHashFollowsTheExpressionAlone() {
        let plain = Attribute("key", .string)
        let derived = Attribute.derived("key", .string, "lowercase:(email)")
        let expected = Data(
            VersionHasher.attributeHash(.derived("other", .integer64, "lowercase:(email)", isOptional: false)))
        #expect(VersionHasher.attributeHash(derived) == expected)
        #expect(VersionHasher.attributeHash(derived) != VersionHasher.attributeHash(plain))
        #expect(
            VersionHasher.attributeHash(derived)
                != VersionHasher.attributeHash(.derived("key", .string, "uppercase:(email)")))
        // Two spellings Core Data stores alike hash alike.
        #expect(
            VersionHasher.attributeHash(.derived("n", .integer64, "items.@count"))
                == VersionHasher.attributeHash(.derived("n", .integer64, "count:(items)")))
        // SHA-256("additionalAttributes.cameraCaptureDevice"), as Photos' Asset hash needs.
        #expect(
            VersionHasher.hex(
                VersionHasher.attributeHash(
                    .derived("derivedCameraCaptureDevice", .integer16, "additionalAttributes.cameraCaptureDevice")))
                == "8d688de75aeaeb079c8ccae749e0767356a20ee63420452150c3eec33ec0826c")
        var model = Self.shop
        let before = model.entityVersionHashes
        model.entities[0].attributes[1].derivationExpression = "uppercase:(email)"
        let after = model.entityVersionHashes
        #expect(before["Customer"] != after["Customer"])
        #expect(before["Order"] == after["Order"])
    }
}
