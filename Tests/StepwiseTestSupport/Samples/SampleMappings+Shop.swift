import StepwiseDemo

/// The Shop history's mapping file (``ShopHistory``).
extension SampleMappings {
    /// Shop 2 → 3: Customer copied as is (listed first, so its instances exist when Order's
    /// policy runs), Order's status turned into a code by ``ShopOrderPolicy``, which also
    /// rewrites each customer's `orderCount`.
    package static let shop2to3 = """
        {
          "source": "Shop 2",
          "destination": "Shop 3",
          "entityMappings": [
            { "source": "Customer", "destination": "Customer" },
            {
              "source": "Order",
              "destination": "Order",
              "policy": "ShopOrderPolicy",
              "attributes": {
                "statusCode": "FUNCTION($entityPolicy, \\"statusCode:\\", $source.status)"
              }
            }
          ]
        }

        """
}
