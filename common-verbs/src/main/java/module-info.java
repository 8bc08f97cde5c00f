/** The unreliable-datagram view of an InfiniBand device (UD ports and multicast groups), shared by btl/verbs (which provides it) and coll/mcast (which multicasts over it). */
module org.jmca.common.verbs {
    exports org.jmca.common.verbs;
}
