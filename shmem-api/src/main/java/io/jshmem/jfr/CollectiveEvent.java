package io.jshmem.jfr;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A collective or barrier on a team, from its entry on this PE to its return: its duration is this PE's
 * time in it, waiting for the slowest member included. Emitted by the teams module.
 */
@Name("jshmem.Collective")
@Label("Collective")
@Category({"jshmem", "Collectives"})
@Description("A team collective or barrier on this PE: team, collective, algorithm, bytes")
@StackTrace(false)
public final class CollectiveEvent extends Event
{
    /** The emitting PE's WORLD number. */
    @Label("PE")
    public int pe;

    /** The team's name ({@code WORLD}, {@code NODE}, {@code split(0,2,4) of WORLD}, ...). */
    @Label("Team")
    public String team;

    /** The number of PEs in the team. */
    @Label("Team Size")
    public int teamSize;

    /** The collective ({@code sync}, {@code broadcast}, {@code reduce}, ...; barrier_all is {@code sync} on WORLD). */
    @Label("Collective")
    public String collective;

    /** The algorithm chosen ({@code DISSEMINATION}, {@code TREE}, ...), empty where there is no choice. */
    @Label("Algorithm")
    public String algorithm;

    /** Bytes of this PE's contribution (0 for sync). */
    @Label("Bytes")
    @DataAmount
    public long bytes;

    /** Makes an event; the teams module fills the fields and commits it. */
    public CollectiveEvent()
    {
    }
}
