package org.jmca.rte.launcher;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.classfile.ClassFile;
import java.net.MalformedURLException;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.security.CodeSource;
import java.security.ProtectionDomain;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/**
 * The class loader of one thread rank, as MPJ Express and FastMPJ give each: the {@code mpi}
 * package (with {@code org.jmca.mpi}, which runs on it) and the application's classes (those of its class path) are defined again for every
 * rank, so their statics ({@code MPI.COMM_WORLD}, attributes, the program's own) are the rank's;
 * the JDK and JMCA's runtime (the components, the transports, the launcher) are loaded once, by the
 * parent, and shared. Every class defined here has its exits and environment reads redirected to
 * the rank ({@link SystemCallRedirect}).
 */
final class RankClassLoader extends URLClassLoader {
    /** Packages that are never the rank's own: the JDK's and JMCA's runtime. */
    private static final List<String> SHARED = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.",
            "org.jmca.mca.", "org.jmca.config.", "org.jmca.progress.", "org.jmca.btl.", "org.jmca.pml.",
            "org.jmca.coll.", "org.jmca.osc.", "org.jmca.rte.", "org.jmca.launch.", "org.jmca.runtime.",
            "org.jmca.junit.");

    static {
        registerAsParallelCapable();
    }

    /** The packages of the JDK's own modules: never the rank's, whatever the application bundles. */
    private static final Set<String> JDK_PACKAGES = ModuleLayer.boot().modules().stream()
            .flatMap(module -> module.getPackages().stream()).collect(Collectors.toUnmodifiableSet());

    private final Map<String, String> environment;
    private final ClassFile classFiles = SystemCallRedirect.classFiles(this);
    private final IntConsumer exits;
    private final Map<String, ProtectionDomain> domains = new ConcurrentHashMap<>();

    /** @param exits told the status of every exit a thread of the rank makes (whichever thread) */
    RankClassLoader(int rank, List<URL> applicationPath, ClassLoader parent, Map<String, String> environment,
                    IntConsumer exits) {
        super("jmca-rank-" + rank, applicationPath.toArray(URL[]::new), parent);
        this.environment = Map.copyOf(environment);
        this.exits = exits;
    }

    /** A thread of the rank exits with {@code status}: the rank's job hears of it. */
    void exiting(int status) {
        exits.accept(status);
    }

    /** The rank's environment, as {@code System.getenv} shows it to the rank's classes. */
    Map<String, String> environment() {
        return environment;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                URL own = ownClassFile(name);
                loaded = own == null ? getParent().loadClass(name) : define(name, own);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }

    /** Where the rank's own copy of class {@code name} comes from, or null if the parent's is shared. */
    private URL ownClassFile(String name) {
        String file = name.replace('.', '/') + ".class";
        if (name.startsWith("mpi.") || name.startsWith("org.jmca.mpi.")) { // the API and what runs on it
            URL runtime = getParent().getResource(file);
            return runtime != null ? runtime : findResource(file);
        }
        for (String shared : SHARED) {
            if (name.startsWith(shared)) {
                return null;
            }
        }
        int dot = name.lastIndexOf('.');
        return dot > 0 && JDK_PACKAGES.contains(name.substring(0, dot)) ? null : findResource(file);
    }

    private Class<?> define(String name, URL classFile) throws ClassNotFoundException {
        byte[] bytes;
        try (InputStream in = classFile.openStream()) {
            bytes = SystemCallRedirect.apply(name, in.readAllBytes(), classFiles);
        } catch (IOException e) {
            throw new ClassNotFoundException(name + ": cannot read " + classFile, e);
        }
        return defineClass(name, bytes, 0, bytes.length, domain(classFile, name)); // it defines the package too
    }

    /** The protection domain of the jar or directory {@code classFile} lies in, so getCodeSource works. */
    private ProtectionDomain domain(URL classFile, String name) {
        String url = classFile.toString();
        String location = url.startsWith("jar:") ? url.substring(4, url.indexOf("!/"))
                : url.substring(0, url.length() - (name.replace('.', '/') + ".class").length());
        return domains.computeIfAbsent(location, l -> {
            try {
                return new ProtectionDomain(new CodeSource(URI.create(l).toURL(), (java.security.CodeSigner[]) null),
                        null, this, null);
            } catch (MalformedURLException | IllegalArgumentException e) {
                throw new UncheckedIOException(new IOException("bad class location " + l, e));
            }
        });
    }
}
