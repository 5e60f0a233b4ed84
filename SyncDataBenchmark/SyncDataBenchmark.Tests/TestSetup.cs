using Xunit;

// One test at a time: a lab is two Kestrel processes and a PostgreSQL cluster on a 2-core machine. Two collections at a
// time took the suite from 41 to 30 minutes (ae0153b), but FaultTests' mid-write termination then once found no writing
// backend to terminate (9562caf's clean-clone run): until such tests hold beside another lab, they run alone.
[assembly: CollectionBehavior(DisableTestParallelization = true)]

namespace SyncDataBenchmark.Tests;
