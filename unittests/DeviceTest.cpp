//===- DeviceTest.cpp - Device and queue name parsing ---------------------===//

#include "HCQ/Base/Device.h"

#include "gtest/gtest.h"

using namespace hcq;

static std::string errorText(hcq::Error err) {
  return hcq::toString(std::move(err));
}

TEST(DeviceName, ParsesKindAndIndex) {
  auto device = parseDeviceName("AMD:3");
  ASSERT_TRUE(static_cast<bool>(device)) << errorText(device.takeError());
  EXPECT_EQ(device->kind, DeviceKind::AMD);
  EXPECT_EQ(device->index, 3u);
  EXPECT_EQ(device->str(), "AMD:3");
}

TEST(DeviceName, MissingIndexMeansZero) {
  auto device = parseDeviceName("CPU");
  ASSERT_TRUE(static_cast<bool>(device)) << errorText(device.takeError());
  EXPECT_EQ(device->kind, DeviceKind::CPU);
  EXPECT_EQ(device->index, 0u);
}

TEST(DeviceName, RejectsUnknownKind) {
  auto device = parseDeviceName("TPU:0");
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_NE(errorText(device.takeError()).find("unknown device kind 'TPU'"),
            std::string::npos);
}

TEST(DeviceName, RejectsBadIndex) {
  for (const char *text : {"AMD:", "AMD:x", "AMD:-1", "AMD:99999999999"}) {
    auto device = parseDeviceName(text);
    ASSERT_FALSE(static_cast<bool>(device)) << text;
    EXPECT_NE(errorText(device.takeError()).find("invalid device index"),
              std::string::npos)
        << text;
  }
}

TEST(DeviceName, RejectsEmpty) {
  auto device = parseDeviceName("");
  ASSERT_FALSE(static_cast<bool>(device));
  EXPECT_NE(errorText(device.takeError()).find("empty device name"),
            std::string::npos);
}

TEST(DeviceName, OnlyAmdAndCpuHaveQueues) {
  EXPECT_TRUE(hasCommandQueueBackend(DeviceKind::AMD));
  EXPECT_TRUE(hasCommandQueueBackend(DeviceKind::CPU));
  EXPECT_FALSE(hasCommandQueueBackend(DeviceKind::CUDA));
  EXPECT_FALSE(hasCommandQueueBackend(DeviceKind::DISK));
}

TEST(QueueName, ParsesEveryKind) {
  for (const char *text : {"COMPUTE:0", "COPY:1", "SUBMIT:0"}) {
    auto queue = parseQueueName(text);
    ASSERT_TRUE(static_cast<bool>(queue)) << errorText(queue.takeError());
    EXPECT_EQ(queue->str(), text);
  }
}

TEST(QueueName, RejectsUnknownKind) {
  auto queue = parseQueueName("DMA:0");
  ASSERT_FALSE(static_cast<bool>(queue));
  EXPECT_NE(errorText(queue.takeError()).find("unknown queue kind 'DMA'"),
            std::string::npos);
}

TEST(DeviceKindSet, ParsesList) {
  auto mask = parseDeviceKindSet("AMD, CPU");
  ASSERT_TRUE(static_cast<bool>(mask)) << errorText(mask.takeError());
  EXPECT_EQ(*mask, (1u << static_cast<unsigned>(DeviceKind::AMD)) |
                       (1u << static_cast<unsigned>(DeviceKind::CPU)));
}

TEST(DeviceKindSet, EmptyIsEmpty) {
  auto mask = parseDeviceKindSet("");
  ASSERT_TRUE(static_cast<bool>(mask)) << errorText(mask.takeError());
  EXPECT_EQ(*mask, 0u);
}

TEST(DeviceKindSet, RejectsRepeatsAndUnknowns) {
  auto repeated = parseDeviceKindSet("AMD,AMD");
  ASSERT_FALSE(static_cast<bool>(repeated));
  EXPECT_NE(errorText(repeated.takeError()).find("listed twice"),
            std::string::npos);
  auto unknown = parseDeviceKindSet("AMD,FOO");
  ASSERT_FALSE(static_cast<bool>(unknown));
  EXPECT_NE(errorText(unknown.takeError()).find("unknown device kind 'FOO'"),
            std::string::npos);
}
