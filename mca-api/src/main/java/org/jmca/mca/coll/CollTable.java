package org.jmca.mca.coll;

import java.util.Collections;
import java.util.EnumMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Which module serves each collective function of one communicator. */
public final class CollTable {

    /** A function's provider: the component's name and its module for this communicator. */
    public record Provider(String component, CollModule module) {
    }

    private final Map<CollFunction, Provider> providers = new EnumMap<>(CollFunction.class);

    /** The provider of {@code function}, if any module provides it. */
    public Optional<Provider> provider(CollFunction function) {
        return Optional.ofNullable(providers.get(function));
    }

    /** The module serving {@code function}; throws if none does (the framework checks at creation). */
    public CollModule module(CollFunction function) {
        Provider provider = providers.get(function);
        if (provider == null) {
            throw new IllegalStateException("no coll module provides " + function);
        }
        return provider.module();
    }

    /** Every module that provides a function, once each. */
    public Set<CollModule> modules() {
        Set<CollModule> modules = Collections.newSetFromMap(new IdentityHashMap<>());
        providers.values().forEach(p -> modules.add(p.module()));
        return modules;
    }

    /** A copy, handed to a module being enabled as the table below it. */
    CollTable copy() {
        CollTable copy = new CollTable();
        copy.providers.putAll(providers);
        return copy;
    }

    void put(CollFunction function, Provider provider) {
        providers.put(function, provider);
    }
}
