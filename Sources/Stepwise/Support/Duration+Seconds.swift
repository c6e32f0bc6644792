extension Duration {
    /// The duration in seconds, as the lock waits count it; never negative.
    var nonNegativeSeconds: Double {
        let (seconds, attoseconds) = components
        return max(0, Double(seconds) + Double(attoseconds) / 1e18)
    }
}
