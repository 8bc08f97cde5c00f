package org.jmca.rte.launcher;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.jar.JarFile;

/**
 * The jmpirun command line of a spawned job (MPI_Comm_spawn and MPI_Comm_spawn_multiple): the
 * programs as {@code java} command lines name them, turned into what jmpirun takes. A program
 * that names no class path gets the spawning rank's, as the children of Open MPI's bindings do.
 */
public final class SpawnLine {
    private SpawnLine() {
    }

    /**
     * What jmpirun takes to start the programs ({@code commands[i]} and its {@code argv[i]},
     * {@code maxprocs[i]} ranks of it): one program as it is; several through {@link
     * AppContexts}, with the class paths of all.
     */
    public static List<String> jmpirunArguments(String[] commands, String[][] argv, int[] maxprocs,
                                                String parentClassPath) {
        if (commands == null || argv == null || maxprocs == null || commands.length == 0
                || argv.length != commands.length || maxprocs.length != commands.length) {
            throw new IllegalArgumentException("spawnMultiple takes as many argument lists and counts as"
                    + " commands: " + (commands == null ? "no" : commands.length) + " commands, "
                    + (argv == null ? "no" : argv.length) + " argument lists, " + (maxprocs == null ? "no"
                    : maxprocs.length) + " counts");
        }
        List<JavaCommand> programs = new ArrayList<>();
        int total = 0;
        for (int i = 0; i < commands.length; i++) {
            if (maxprocs[i] < 1) {
                throw new IllegalArgumentException("maxprocs " + maxprocs[i] + " is not a positive number of"
                        + " processes");
            }
            programs.add(JavaCommand.parse(commands[i], argv[i], parentClassPath));
            total += maxprocs[i];
        }
        List<String> line = new ArrayList<>(List.of("-np", String.valueOf(total)));
        JavaCommand first = programs.getFirst();
        for (JavaCommand program : programs) {
            if (!program.jvmOptions().equals(first.jvmOptions())) {
                throw new IllegalArgumentException("the programs of one spawned job share their JVM options,"
                        + " but " + first.jvmOptions() + " and " + program.jvmOptions() + " differ");
            }
        }
        first.jvmOptions().forEach(option -> line.addAll(List.of("--jvm-arg", option)));
        if (programs.size() == 1) {
            line.addAll(first.jar() != null ? List.of("-jar", first.jar())
                    : List.of("-cp", String.join(File.pathSeparator, first.classPath())));
            if (first.jar() == null) {
                line.add(first.mainClass());
            }
            line.addAll(first.args());
            return line;
        }
        Set<String> classPath = new LinkedHashSet<>();
        List<AppContexts.App> apps = new ArrayList<>();
        for (int i = 0; i < programs.size(); i++) {
            JavaCommand program = programs.get(i);
            classPath.addAll(program.jar() != null ? List.of(program.jar()) : program.classPath());
            apps.add(new AppContexts.App(maxprocs[i], program.mainClassToRun(), program.args()));
        }
        classPath.addAll(Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)));
        line.addAll(List.of("-cp", String.join(File.pathSeparator, classPath), AppContexts.class.getName()));
        line.addAll(AppContexts.arguments(apps));
        return line;
    }

    /**
     * A spawned program as a {@code java} command line names it: {@code "java"} and its arguments,
     * JVM options first, then "-cp PATH" and a class, or "-jar JAR", then the program's arguments.
     *
     * @param jvmOptions options for the program's JVM, each one word ("--add-opens=..." for the
     *                   two-word forms)
     * @param classPath  the class path: the one named, else the spawning rank's
     * @param jar        the "-jar" file, or null
     * @param mainClass  the class named, or null with a jar
     * @param args       the program's arguments
     */
    record JavaCommand(List<String> jvmOptions, List<String> classPath, String jar, String mainClass,
                       List<String> args) {
        /** java's options that take the next word as their value. */
        private static final Set<String> TWO_WORDS = Set.of("--add-opens", "--add-exports", "--add-modules",
                "--add-reads", "--module-path", "-p", "--limit-modules", "--upgrade-module-path", "--patch-module");

        static JavaCommand parse(String command, String[] argv, String parentClassPath) {
            if (command == null || !Path.of(command).getFileName().toString().equals("java")) {
                throw new IllegalArgumentException("JMCA spawns Java programs: the command is \"java\" and the"
                        + " arguments what follows it (JVM options, \"-cp\" PATH, CLASS, ARGS...), not '" + command
                        + "'");
            }
            String[] words = argv == null ? new String[0] : argv;
            List<String> options = new ArrayList<>();
            String classPath = null;
            for (int i = 0; i < words.length; i++) {
                String word = words[i];
                if (word.equals("-cp") || word.equals("-classpath") || word.equals("--class-path")) {
                    classPath = value(words, i++, word);
                } else if (word.equals("-jar")) {
                    String jar = value(words, i, word);
                    return new JavaCommand(options, List.of(), jar, null, rest(words, i + 2));
                } else if (TWO_WORDS.contains(word)) {
                    options.add(word + "=" + value(words, i++, word));
                } else if (word.startsWith("-")) {
                    options.add(word);
                } else {
                    String path = classPath != null ? classPath : parentClassPath;
                    return new JavaCommand(options, List.of(path.split(File.pathSeparator)), null, word,
                            rest(words, i + 1));
                }
            }
            throw new IllegalArgumentException("the java command line " + Arrays.toString(words) + " names no class"
                    + " to run (nor -jar JAR)");
        }

        private static String value(String[] words, int at, String option) {
            if (at + 1 >= words.length) {
                throw new IllegalArgumentException("java's option " + option + " lacks its value");
            }
            return words[at + 1];
        }

        private static List<String> rest(String[] words, int from) {
            return List.of(Arrays.copyOfRange(words, Math.min(from, words.length), words.length));
        }

        /** The class to run: the one named, or the jar's Main-Class. */
        String mainClassToRun() {
            if (mainClass != null) {
                return mainClass;
            }
            try (JarFile file = new JarFile(jar)) {
                String main = file.getManifest() == null ? null
                        : file.getManifest().getMainAttributes().getValue("Main-Class");
                if (main == null) {
                    throw new IllegalArgumentException(jar + " names no Main-Class in its manifest");
                }
                return main;
            } catch (IOException e) {
                throw new IllegalArgumentException("cannot read the jar " + jar + ": " + e.getMessage());
            }
        }
    }
}
