package org.jmca.mca;

import java.util.List;
import java.util.function.Supplier;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;
import org.jmca.mca.progress.ProgressComponent;
import org.jmca.mca.progress.ProgressEngine;
import org.jmca.mca.progress.ProgressEnvironment;

/** Components made to order for selection tests. */
final class FakeComponents {
    private FakeComponents() {
    }

    static class FakeProgress implements ProgressComponent {
        private final String name;
        private final int priority;
        private final Supplier<Availability> probe;
        boolean closed;

        FakeProgress(String name, int priority, Supplier<Availability> probe) {
            this.name = name;
            this.priority = priority;
            this.probe = probe;
        }

        FakeProgress(String name, int priority) {
            this(name, priority, () -> Availability.AVAILABLE);
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int defaultPriority() {
            return priority;
        }

        @Override
        public Availability probe() {
            return probe.get();
        }

        @Override
        public ProgressEngine createEngine(ProgressEnvironment environment) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    static class FakeBtl implements BtlComponent {
        private final String name;

        FakeBtl(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int defaultPriority() {
            return 0;
        }

        @Override
        public void registerParameters(ParameterRegistrar registrar) {
            registrar.register(ParameterSpec.builder("eager_limit", ParamType.SIZE, 4096L).help("eager").build());
        }

        @Override
        public List<BtlModule> createModules(BtlEnvironment environment) {
            return List.of();
        }
    }

    /** Found through ServiceLoader by ComponentRepositoryTest. */
    public static final class ServiceBtlA extends FakeBtl {
        public ServiceBtlA() {
            super("alpha");
        }
    }

    /** Found through ServiceLoader by ComponentRepositoryTest. */
    public static final class ServiceProgressB extends FakeProgress {
        public ServiceProgressB() {
            super("beta", 3);
        }
    }

    /** Has the same name as ServiceBtlA. */
    public static final class ServiceBtlAlphaAgain extends FakeBtl {
        public ServiceBtlAlphaAgain() {
            super("alpha");
        }
    }

    /** Says it is a btl but does not implement BtlComponent. */
    public static final class Impostor implements Component {
        @Override
        public Framework framework() {
            return Framework.BTL;
        }

        @Override
        public String name() {
            return "impostor";
        }

        @Override
        public int defaultPriority() {
            return 0;
        }
    }
}
