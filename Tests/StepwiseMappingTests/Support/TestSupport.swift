import StepwiseMapping

// Foundation also declares Expression and Predicate (for its #Predicate macro): in files that
// import both, these module-level aliases make the names mean Stepwise's.
typealias Expression = StepwiseMapping.Expression
typealias Predicate = StepwiseMapping.Predicate
