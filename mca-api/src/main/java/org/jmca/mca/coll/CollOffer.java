package org.jmca.mca.coll;

/**
 * A component's answer for one communicator: a module, or the reason it does not serve it
 * ("communicator smaller than coll_mcast_min_size=8"), which the communicator's report shows.
 */
public record CollOffer(CollModule module, String reason) {

    public static CollOffer of(CollModule module) {
        return new CollOffer(module, "");
    }

    public static CollOffer declined(String reason) {
        return new CollOffer(null, reason);
    }

    public boolean accepted() {
        return module != null;
    }
}
