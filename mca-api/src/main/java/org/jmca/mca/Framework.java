package org.jmca.mca;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.pml.PmlComponent;
import org.jmca.mca.progress.ProgressComponent;

/**
 * The plug-in types of JMCA. Each framework has one SPI interface that its components
 * implement, and a way of choosing among them.
 */
public enum Framework {
    BTL(Selection.MULTI, BtlComponent.class, "byte transfer layers: move bytes to peers"),
    PML(Selection.SINGLE, PmlComponent.class, "point-to-point messaging: matching and protocols"),
    COLL(Selection.PER_COMMUNICATOR, CollComponent.class, "collective operations"),
    PROGRESS(Selection.SINGLE, ProgressComponent.class, "progress engine and waiting");

    /** How a framework chooses among its available components. */
    public enum Selection {
        /** The available component with the highest priority; the others are not used. */
        SINGLE("single-select"),
        /** Every available component, ordered by priority. */
        MULTI("multi-select"),
        /** Every available component is opened; each communicator then picks per function. */
        PER_COMMUNICATOR("per-communicator");

        private final String label;

        Selection(String label) {
            this.label = label;
        }

        public String label() {
            return label;
        }
    }

    private final Selection selection;
    private final Class<? extends Component> spi;
    private final String description;

    Framework(Selection selection, Class<? extends Component> spi, String description) {
        this.selection = selection;
        this.spi = spi;
        this.description = description;
    }

    /** The name users type: {@code btl}, {@code pml}, {@code coll}, {@code progress}. */
    public String id() {
        return name().toLowerCase(Locale.ROOT);
    }

    public Selection selection() {
        return selection;
    }

    /** The interface every component of this framework implements. */
    public Class<? extends Component> spi() {
        return spi;
    }

    public String description() {
        return description;
    }

    public static Optional<Framework> byId(String id) {
        return Arrays.stream(values()).filter(f -> f.id().equals(id)).findFirst();
    }
}
