# syntax=docker/dockerfile:1
# Build stage: Maven and a JDK build the manager and lay out the runtime filesystem under manager/target/image/.
FROM maven:3.9-eclipse-temurin-21 AS build
WORKDIR /src
COPY . .
# The build context has no .git: the commit --version prints comes from `make docker-build`.
ARG COMMIT=unknown
RUN mvn -B -ntp -q package -DskipTests -Dspotless.check.skip=true -Dgit.commit.id.abbrev=${COMMIT} -pl manager -am

# Runtime stage: a JRE, the jar, a numeric non-root user.
FROM eclipse-temurin:25-jre
COPY --from=build /src/manager/target/image/ /
USER 65532:65532
# The JVM settings of config/manager/manager.yaml, each justified in docs/bench/archive/history.md#jvm-settings: heap as a share
# of the container's memory limit, the serial collector, compact object headers, a heap that gives memory back after a
# full collection, native memory handed back to the OS, two malloc arenas.
ENV JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=29 -XX:NewRatio=4 -XX:-TieredCompilation -XX:+UseSerialGC -XX:+UseCompactObjectHeaders -XX:MinHeapFreeRatio=20 -XX:MaxHeapFreeRatio=40 -XX:TrimNativeHeapInterval=5000 -XX:+ExitOnOutOfMemoryError"
ENV MALLOC_ARENA_MAX=2
EXPOSE 8080 8443 8081
ENTRYPOINT ["java", "-jar", "/app/kyma-operator.jar"]
