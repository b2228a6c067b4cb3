package io.jshmem.runtime;

import io.jshmem.bootstrap.BootstrapSettings;
import io.jshmem.bootstrap.SingletonBootstrap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The wait strategy's hooks for transports served by their waiters' progress calls (UCX). */
class WaitIdleTest
{
    private SingletonBootstrap bootstrap;

    @BeforeEach
    void open()
    {
        bootstrap = new SingletonBootstrap(BootstrapSettings.defaults());
    }

    @AfterEach
    void close()
    {
        bootstrap.close();
    }

    @Test
    void everyPollBeforeTheParksProgressesAndTheFirstParkHandsOverOnce()
    {
        final WaitIdle idle = new WaitIdle(bootstrap, "[pe 0/1] ", 3, 2);
        final AtomicInteger progressed = new AtomicInteger();
        final AtomicInteger handedOver = new AtomicInteger();
        idle.progressWith(progressed::incrementAndGet, handedOver::incrementAndGet);
        int count = 0;
        for (int poll = 0; poll < 5; poll++)
        {
            count = idle.idle(count);
        }
        assertEquals(5, progressed.get(), "3 spins and 2 yields progress");
        assertEquals(0, handedOver.get(), "no park yet");
        for (int poll = 0; poll < 3; poll++)
        {
            count = idle.idle(count); // parks 10 us each
        }
        assertEquals(5, progressed.get(), "a parked wait leaves progress to the transport's thread");
        assertEquals(1, handedOver.get(), "handed over once, at the wait's first park");
        count = 0; // the next wait
        for (int poll = 0; poll < 6; poll++)
        {
            count = idle.idle(count);
        }
        assertEquals(10, progressed.get());
        assertEquals(2, handedOver.get(), "each wait hands over at its first park");
    }

    @Test
    void aWaitThatNeverParksNeverHandsOver()
    {
        final WaitIdle idle = new WaitIdle(bootstrap, "[pe 0/1] ", 2, -1);
        final AtomicInteger progressed = new AtomicInteger();
        final AtomicInteger handedOver = new AtomicInteger();
        idle.progressWith(progressed::incrementAndGet, handedOver::incrementAndGet);
        int count = 0;
        for (int poll = 0; poll < 50; poll++)
        {
            count = idle.idle(count);
        }
        assertEquals(50, progressed.get(), "spins, then yields, each progressing");
        assertEquals(0, handedOver.get());
    }
}
