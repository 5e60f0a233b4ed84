namespace SomeService.Sync;

/// <summary>Source and target disagree after the write: the run is rolled back, and the message says by how much.</summary>
public sealed class VerificationException(string message) : Exception(message);
