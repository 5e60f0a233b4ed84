namespace SomeService.Sync;

/// <summary>The target database failed while rows were being written (not the source).</summary>
public sealed class TargetWriteException(string message, Exception inner) : Exception(message, inner);
